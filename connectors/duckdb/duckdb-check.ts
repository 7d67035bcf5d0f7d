/**
 * What a DuckDB file needs from the file system, checked before DuckDB opens it
 * (docs/destinations/duckdb.md#files-and-permissions): its folder exists (a typo in
 * `destination.path` must not start a new, empty warehouse), the user aivis runs as may write
 * the file and its write-ahead log (`<file>.wal`) and create files in the folder (DuckDB makes
 * the log there on the first write). And `check`'s proof for a file that does not exist yet: a
 * scratch database beside it, created, written and removed, so `check` never leaves the
 * database file behind.
 */
import { randomBytes } from 'node:crypto';
import { constants, existsSync, statSync } from 'node:fs';
import { access, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureAnsiTables } from '../../src/destination/schema-diff.ts';
import { writeProbeTable } from '../../src/destination/sql-statements.ts';
import { DestinationError, ExitCode, MissingPrivilegesError } from '../../src/errors.ts';
import { connectDuckdb } from './duckdb-client.ts';
import { catalogOfFile, type DuckdbOptions } from './duckdb-config.ts';
import { duckdbCatalog, tableName } from './duckdb-sql.ts';

/** A path as a shell command takes it: bare when it holds nothing a shell reads. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Exit 2 when the file's folder does not exist, naming it and the command that makes it. */
export function assertFolderExists(options: DuckdbOptions): void {
  if (options.path === ':memory:') return;
  const folder = path.dirname(options.path);
  if (!existsSync(folder))
    throw new DestinationError(
      `destination.path ${options.path}: the folder ${folder} does not exist, and aivis does not start a new warehouse where none was meant: ` +
        `create it with mkdir -p ${shellWord(folder)}, or correct destination.path`,
      ExitCode.Usage,
    );
  if (!statSync(folder).isDirectory())
    throw new DestinationError(`destination.path ${options.path}: ${folder} is a file, not a folder`, ExitCode.Usage);
}

/** Why this process may not do `mode` to `file` (the kernel's answer for its user), or undefined when it may. */
async function refusal(file: string, mode: number): Promise<string | undefined> {
  return access(file, mode).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code ?? 'EACCES',
  );
}

/**
 * A `MissingPrivilegesError` with one fix a line per path the user cannot write (the file, its
 * write-ahead log, the folder), or undefined when it can write them all. Permission bits are
 * fixed with `chmod` by their owner, or `chown` to the user; an immutable file (EPERM, which
 * binds root too) with `chattr -i`; a read-only file system only by another path.
 */
export async function fileAccessError(options: DuckdbOptions): Promise<MissingPrivilegesError | undefined> {
  if (options.path === ':memory:') return undefined;
  const { username, uid } = os.userInfo();
  const fix = (target: string, mode: string, code: string) => {
    const word = shellWord(target);
    if (code === 'EROFS') return `${target} is on a read-only file system: set destination.path to a writable one`;
    if (code === 'EPERM') return `chattr -i ${word}`;
    return statSync(target).uid === uid ? `chmod ${mode} ${word}` : `chown ${username} ${word}`;
  };
  const fixes: string[] = [];
  for (const file of [options.path, `${options.path}.wal`]) {
    const code = existsSync(file) ? await refusal(file, constants.R_OK | constants.W_OK) : undefined;
    if (code) fixes.push(fix(file, 'u+rw', code));
  }
  const folder = path.dirname(options.path);
  const code = await refusal(folder, constants.W_OK | constants.X_OK);
  if (code) fixes.push(fix(folder, 'u+wx', code));
  if (!fixes.length) return undefined;
  return new MissingPrivilegesError(
    `user ${username} (uid ${uid}) cannot write the DuckDB file ${options.path}, its write-ahead log and new files in its folder, as every sync does; ` +
      `as their owner or root run ${fixes.length === 1 ? 'this command' : `these ${fixes.length} commands`} (or set destination.path to a folder ${username} may write)`,
    fixes,
  );
}

/**
 * Proves DuckDB can create a database in the file's folder and create, write and drop a table
 * in the schema there, on a scratch file that is removed after (with its write-ahead log).
 */
export async function probeScratchDatabase(options: DuckdbOptions): Promise<void> {
  const scratch = path.join(path.dirname(options.path), `.aivis-check-${randomBytes(4).toString('hex')}.duckdb`);
  const probe = { ...options, path: scratch, catalog: catalogOfFile(scratch) };
  try {
    const session = await connectDuckdb(probe);
    try {
      await ensureAnsiTables(duckdbCatalog(session, probe), []);
      await writeProbeTable((statement) => session.run(statement), tableName(probe, 'probe'));
    } finally {
      session.close();
    }
  } finally {
    await Promise.all([rm(scratch, { force: true }), rm(`${scratch}.wal`, { force: true })]);
  }
}
