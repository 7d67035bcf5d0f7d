/**
 * The run lock. Across processes DuckDB's own file lock does the work (a second process
 * cannot open the file; `connectDuckdb` turns that into a `LockHeldError`), so workspaces
 * run side by side on one DuckDB file only inside one process. Inside one process the live
 * locks are kept here, one per file, schema and workspace, and a `_aivis_lock` row records
 * the holder for users who look at the file.
 */
import type { DestinationLock, LockOwner } from '../../src/destination/destination.ts';
import { lockTable } from '../../src/destination/engine-tables.ts';
import { lockHeldError, lockRow, releaseOnce, syncLockName } from '../../src/destination/run-lock.ts';
import { ensureAnsiTables } from '../../src/destination/schema-diff.ts';
import { deleteLockRowSql, upsertLockRowSql } from '../../src/destination/sql-statements.ts';
import { DestinationError } from '../../src/errors.ts';
import type { DuckdbSession } from './duckdb-client.ts';
import type { DuckdbOptions } from './duckdb-config.ts';
import { duckdbCatalog, oneDdlAtATime, tableName } from './duckdb-sql.ts';

const held = new Map<string, LockOwner>();

/** Takes the lock on `schema` of `file` for `owner` and its workspace, or throws `LockHeldError` naming the holder. */
function takeProcessLock(file: string, schema: string, owner: LockOwner): () => void {
  const key = `${file}\u0000${schema}\u0000${owner.workspace}`;
  const holder = held.get(key);
  if (holder) throw lockHeldError(schema, owner.workspace, holder);
  held.set(key, owner);
  return () => {
    if (held.get(key) === owner) held.delete(key);
  };
}

/**
 * Takes the lock and writes its row through `session`; the release deletes the row through
 * `session()` if the destination is still open, and frees the lock either way.
 */
export async function acquireDuckdbLock(
  session: () => DuckdbSession | undefined,
  options: DuckdbOptions,
  owner: LockOwner,
): Promise<DestinationLock> {
  const unlock = takeProcessLock(options.path, options.schema, owner);
  const target = tableName(options, lockTable.name);
  try {
    const s = session()!;
    const row = lockRow(owner);
    await oneDdlAtATime(options.path, () =>
      s.transaction(async () => {
        await ensureAnsiTables(duckdbCatalog(s, options), [lockTable]);
        await s.run(
          upsertLockRowSql(target, lockTable),
          lockTable.columns.map((c) => row[c.name] as string | number),
        );
      }),
    );
  } catch (error) {
    unlock();
    throw new DestinationError(
      `DuckDB refused to record the run lock in schema "${options.schema}": ${(error as Error).message}`,
    );
  }
  return releaseOnce(async () => {
    try {
      await session()?.run(deleteLockRowSql(target), [syncLockName(owner.workspace), owner.runId]);
    } finally {
      unlock();
    }
  });
}
