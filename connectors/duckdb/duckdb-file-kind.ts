/**
 * Whether an existing `destination.path` is a DuckDB database before DuckDB opens it: DuckDB
 * handed a file it does not recognise (a CSV) can end up in a database that lives in memory,
 * and a sync "succeeds" into it and loses every row. The path names the warehouse and nothing
 * else: a file that is not a DuckDB database is refused (exit 2), naming what it looks like
 * (docs/destinations/duckdb.md#files-and-permissions).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { DestinationError, ExitCode } from '../../src/errors.ts';
import type { DuckdbOptions } from './duckdb-config.ts';

/** A DuckDB database file holds `DUCK` after its 8-byte header checksum. */
const DUCKDB_MAGIC = { offset: 8, bytes: 'DUCK' };

/** What other files start with, for a message that names what the path holds. */
const KNOWN_HEADERS: readonly (readonly [string, string])[] = [
  ['SQLite format 3\0', 'an SQLite database'],
  ['PAR1', 'a Parquet file'],
  ['PK\u0003\u0004', 'a zip archive (or a spreadsheet)'],
  ['\u001f\u008b', 'a gzip archive'],
];

function firstBytes(file: string, count: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(count);
    return buffer.subarray(0, readSync(fd, buffer, 0, count, 0));
  } finally {
    closeSync(fd);
  }
}

/** What a file that is not a DuckDB database looks like, in words. */
function describeFile(file: string, head: Buffer): string {
  const latin1 = head.toString('latin1');
  const known = KNOWN_HEADERS.find(([magic]) => latin1.startsWith(magic));
  if (known) return known[1];
  const extension = path.extname(file).slice(1).toLowerCase();
  const text = !head.includes(0);
  if (text && extension) return `a text file (.${extension})`;
  return text ? 'a text file' : 'a file of another kind';
}

/** Exit 2 when `destination.path` names an existing file that is not a DuckDB database. */
export function assertDuckdbFile(options: Pick<DuckdbOptions, 'path'>): void {
  if (options.path === ':memory:') return;
  let size: number;
  try {
    const stat = statSync(options.path);
    if (stat.isDirectory())
      throw new DestinationError(
        `destination.path ${options.path} is a folder, not a DuckDB database file: name a file inside it (for example ${path.join(options.path, 'aivis.duckdb')})`,
        ExitCode.Usage,
      );
    size = stat.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  // An empty file is what a new database starts as; DuckDB writes its header into it.
  if (size === 0) return;
  let head: Buffer;
  try {
    head = firstBytes(options.path, 64);
  } catch {
    return; // unreadable: the file-access check names the fix
  }
  const magic = head.subarray(DUCKDB_MAGIC.offset, DUCKDB_MAGIC.offset + DUCKDB_MAGIC.bytes.length);
  if (magic.toString('latin1') === DUCKDB_MAGIC.bytes) return;
  throw new DestinationError(
    `destination.path ${options.path} is ${describeFile(options.path, head)}, not a DuckDB database; aivis loads only into the file named: ` +
      'point destination.path at a DuckDB file (or a path where none exists yet, to start one)',
    ExitCode.Usage,
  );
}
