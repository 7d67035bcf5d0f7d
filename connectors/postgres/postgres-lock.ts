/**
 * The run lock: `pg_try_advisory_lock` on a connection of its own, held for the whole run,
 * so a killed process loses the lock with its connection; plus a `_aivis_lock` row naming
 * the holder for the refusal message.
 */
import type { DestinationLock, LockOwner } from '../../src/destination/destination.ts';
import { lockTable } from '../../src/destination/engine-tables.ts';
import { type LockHolder, lockHeldError, lockRow, releaseOnce, syncLockName } from '../../src/destination/run-lock.ts';
import { DEFAULT_WORKSPACE } from '../../src/destination/workspace.ts';
import { qualifiedName } from '../../src/destination/sql-identifier.ts';
import type { Logger } from '../../src/log/logger.ts';
import { connectPostgres, type PostgresSession } from './postgres-client.ts';
import type { PostgresOptions } from './postgres-config.ts';
import { deleteLockRowSql, selectSql, upsertLockRowSql } from '../../src/destination/sql-statements.ts';
import { ADVISORY_UNLOCK, ensurePostgresTables, TABLE_EXISTS, TRY_ADVISORY_LOCK } from './postgres-sql.ts';
import { readExpression } from './postgres-types.ts';

/** A held run lock; `lost()` is true once its connection died (the advisory lock died with it). */
export interface PostgresLock extends DestinationLock {
  lost(): boolean;
}

export async function acquirePostgresLock(
  options: PostgresOptions,
  logger: Logger,
  owner: LockOwner,
): Promise<PostgresLock> {
  const { schema } = options;
  const { workspace } = owner;
  const name = syncLockName(workspace);
  // `default` keeps the key of older versions, so an old run on the same schema still excludes it.
  const key = workspace === DEFAULT_WORKSPACE ? `aivis:${schema}` : `aivis:${schema}:${workspace}`;
  const session = await connectPostgres(options, logger);
  try {
    const { rows } = await session.query<{ locked: boolean }>(TRY_ADVISORY_LOCK, [key]);
    if (!rows[0]?.locked) throw lockHeldError(schema, workspace, await readHolder(session, schema, name));
    await ensurePostgresTables(session, schema, [lockTable], logger);
    const row = lockRow(owner);
    await session.query(
      upsertLockRowSql(qualifiedName(schema, lockTable.name), lockTable),
      lockTable.columns.map((c) => row[c.name]),
    );
  } catch (error) {
    await session.end();
    throw error;
  }
  let released = false;
  const release = releaseOnce(async () => {
    released = true;
    try {
      await session.query(deleteLockRowSql(qualifiedName(schema, lockTable.name)), [name, owner.runId]);
      await session.query(ADVISORY_UNLOCK, [key]);
    } finally {
      await session.end();
    }
  });
  return { ...release, lost: () => !released && !session.isAlive() };
}

async function readHolder(session: PostgresSession, schema: string, name: string): Promise<LockHolder | undefined> {
  const { rows: present } = await session.query<{ present: boolean }>(TABLE_EXISTS, [
    qualifiedName(schema, lockTable.name),
  ]);
  if (!present[0]?.present) return undefined;
  const { rows } = await session.query<{ run_id: string; host: string; pid: string; started_at: string }>(
    selectSql(qualifiedName(schema, lockTable.name), lockTable, readExpression, `"name" = $1`),
    [name],
  );
  const row = rows[0];
  return row && { runId: row.run_id, host: row.host, pid: Number(row.pid), startedAt: row.started_at };
}
