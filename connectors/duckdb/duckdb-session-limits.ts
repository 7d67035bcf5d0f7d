/**
 * The bounds aivis sets in every DuckDB session it opens (docs/destinations/duckdb.md#memory):
 * `memory_limit`, `threads` and the `temp_directory` DuckDB spills to past the limit. Left to
 * itself DuckDB takes 80 % of the machine's memory and a thread per core, so one wide page
 * could take a sync to gigabytes; aivis loads a flush at a time, which a small buffer pool
 * holds. These are settings of the database instance, set with `SET` on each connection
 * rather than passed when the instance is made: DuckDB's instance cache refuses a second
 * open of one file with other options, and every open of it sets the same values.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { DuckdbConfig } from '../../schemas/destinations/duckdb.ts';
import { DestinationError } from '../../src/errors.ts';
import { DUCKDB_DIALECT } from './duckdb-dialect.ts';

/**
 * Default `memory_limit`: the longest page aivis accepts loads (16 records of 4 MiB need about
 * 160MB, since DuckDB keeps strings of 256 KB or more of the row group it appends to in memory;
 * 128MB failed it), as does an upsert into a 3M-row table (64MB fails its commit at 1M rows).
 */
export const DEFAULT_MEMORY_LIMIT = '256MB';
/** Default `threads`: a flush is one appender and one upsert; more threads mostly add buffers. */
export const DEFAULT_THREADS = 1;

/**
 * DuckDB's allocator keeps what a flush freed for reuse, up to 128 MiB after a task and 512 MiB
 * after a bulk free, outside `memory_limit`: on the largest page that was about 200 MB of the
 * process's peak (712-732 MB against 531 MB with these; 4 MiB after a task did no better,
 * docs/performance.md). Handing it back on a background thread costs little: a flush
 * allocates afresh.
 */
const ALLOCATOR_STATEMENTS = [
  "SET allocator_flush_threshold = '16MiB'",
  "SET allocator_bulk_deallocation_flush_threshold = '16MiB'",
  'SET allocator_background_threads = true',
];

export interface DuckdbLimits {
  readonly memoryLimit: string;
  readonly threads: number;
  /** Absolute; undefined: beside the database file (see `spillFolder`). */
  readonly tempDirectory: string | undefined;
}

export function duckdbLimits(config: DuckdbConfig): DuckdbLimits {
  return {
    memoryLimit: config.memory_limit ?? DEFAULT_MEMORY_LIMIT,
    threads: config.threads ?? DEFAULT_THREADS,
    tempDirectory: config.temp_directory && path.resolve(config.temp_directory),
  };
}

/**
 * Where a session on `file` spills: the configured folder, else DuckDB's own default beside
 * the file (`<file>.tmp`); an in-memory database gets a folder of its own in the system's
 * temporary folder, never the working directory DuckDB would use. DuckDB creates the folder
 * on the first spill and removes it when the database closes.
 */
export function spillFolder(file: string, limits: DuckdbLimits): string {
  if (limits.tempDirectory) return limits.tempDirectory;
  if (file === ':memory:') return path.join(os.tmpdir(), `aivis-duckdb-${randomBytes(6).toString('hex')}`);
  return `${file}.tmp`;
}

/** The `SET` statements that bound a session on `file`. */
function limitStatements(file: string, limits: DuckdbLimits): string[] {
  const literal = DUCKDB_DIALECT.literal;
  return [
    `SET memory_limit = ${literal(limits.memoryLimit.trim())}`,
    `SET threads = ${limits.threads}`,
    `SET temp_directory = ${literal(spillFolder(file, limits))}`,
    ...ALLOCATOR_STATEMENTS,
  ];
}

/**
 * Bounds the session `run` belongs to; a refusal is a `DestinationError` naming the keys that set
 * the values (DuckDB checks a `temp_directory` it cannot use only here).
 */
export async function applyLimits(
  run: (sql: string) => Promise<unknown>,
  file: string,
  limits: DuckdbLimits,
): Promise<void> {
  try {
    for (const statement of limitStatements(file, limits)) await run(statement);
  } catch (error) {
    throw new DestinationError(
      `DuckDB refused the settings of ${file} (destination.memory_limit, threads, temp_directory): ${(error as Error).message}`,
    );
  }
}
