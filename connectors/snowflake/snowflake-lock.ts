/**
 * The run lock on Snowflake: the `_AIVIS_LOCK` row with a lease. Snowflake has no session-bound
 * advisory lock, so the holder renews `expires_at` while it runs; a crashed run stops renewing
 * and loses the lock when the lease runs out. Taking the lock is one conditional UPDATE,
 * which Snowflake serializes against other UPDATEs of the table, so two runs cannot both win.
 */
import type { DestinationLock, LockOwner } from '../../src/destination/destination.ts';
import { lockHeldError, lockTable, SYNC_LOCK_NAME } from '../../src/destination/lock-table.ts';
import { column, type TableSpec } from '../../src/destination/table-spec.ts';
import type { Logger } from '../../src/log/logger.ts';
import type { SnowflakeClient } from './snowflake-client.ts';
import type { SnowflakeLocation } from './snowflake-config.ts';
import { ident } from './snowflake-identifier.ts';
import { ensureSchema } from './snowflake-schema.ts';
import { createTableSql, selectAllSql, tableName } from './snowflake-sql.ts';
import { fromDriverValue } from './snowflake-types.ts';

/** How long a lock outlives its last renewal; a crashed run blocks the next one at most this long. */
export const LEASE_MS = 10 * 60_000;
const RENEW_EVERY_MS = LEASE_MS / 5;

export const snowflakeLockTable: TableSpec = { ...lockTable, columns: [...lockTable.columns, column('expires_at', 'timestamp', false)] };

export interface LeaseLockDeps {
  /** A session of its own: renewals must not join a data transaction. Closed on release. */
  readonly client: SnowflakeClient;
  readonly at: SnowflakeLocation;
  readonly logger: Logger;
  readonly now: () => Date;
}

export async function acquireLeaseLock(deps: LeaseLockDeps, owner: LockOwner): Promise<DestinationLock> {
  const { client, at, now } = deps;
  const table = tableName(at, snowflakeLockTable.name);
  const name = ident('name');
  const runId = ident('run_id');
  const expiresAt = ident('expires_at');
  const expiry = () => new Date(now().getTime() + LEASE_MS).toISOString();
  try {
    await ensureSchema(client, at);
    await client.execute(createTableSql(at, snowflakeLockTable));
    // The row exists before anyone competes for it, so taking the lock is an UPDATE, never an INSERT race.
    await client.execute(
      `MERGE INTO ${table} AS T USING (SELECT ? AS ${name}) AS S ON T.${name} = S.${name} ` +
        `WHEN NOT MATCHED THEN INSERT (${['name', 'run_id', 'host', 'pid', 'started_at', 'expires_at'].map(ident).join(', ')}) ` +
        `VALUES (S.${name}, '', '', 0, '1970-01-01T00:00:00Z'::TIMESTAMP_TZ, '1970-01-01T00:00:00Z'::TIMESTAMP_TZ)`,
      [SYNC_LOCK_NAME],
    );
    const [taken] = await client.execute(
      `UPDATE ${table} SET ${runId} = ?, ${ident('host')} = ?, ${ident('pid')} = ?::NUMBER(38,0), ${ident('started_at')} = ?::TIMESTAMP_TZ, ${expiresAt} = ?::TIMESTAMP_TZ ` +
        `WHERE ${name} = ? AND (${expiresAt} < ?::TIMESTAMP_TZ OR ${runId} = ?)`,
      [owner.runId, owner.host, String(owner.pid), owner.startedAt, expiry(), SYNC_LOCK_NAME, now().toISOString(), owner.runId],
    );
    if (Number(taken?.['number of rows updated'] ?? 0) < 1) throw await heldError(deps);
  } catch (error) {
    await client.close();
    throw error;
  }

  const renew = async () => {
    const [renewed] = await client.execute(`UPDATE ${table} SET ${expiresAt} = ?::TIMESTAMP_TZ WHERE ${name} = ? AND ${runId} = ?`, [expiry(), SYNC_LOCK_NAME, owner.runId]);
    if (Number(renewed?.['number of rows updated'] ?? 0) < 1) deps.logger.error('lost the Snowflake run lock: another run took it after our lease expired', { runId: owner.runId });
  };
  const timer = setInterval(() => void renew().catch((error: unknown) => deps.logger.warn('could not renew the Snowflake run lock lease', { error })), RENEW_EVERY_MS);
  timer.unref();
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      try {
        await client.execute(`UPDATE ${table} SET ${expiresAt} = '1970-01-01T00:00:00Z'::TIMESTAMP_TZ WHERE ${name} = ? AND ${runId} = ?`, [SYNC_LOCK_NAME, owner.runId]);
      } finally {
        await client.close();
      }
    },
  };
}

async function heldError(deps: LeaseLockDeps): Promise<Error> {
  const [row] = await deps.client.execute(selectAllSql(deps.at, snowflakeLockTable, `${ident('name')} = ?`), [SYNC_LOCK_NAME]);
  const value = (col: string) => fromDriverValue(snowflakeLockTable.columns.find((c) => c.name === col)!.type, row?.[col.toUpperCase()]);
  const holder = row && { runId: String(value('run_id')), host: String(value('host')), pid: Number(value('pid')), startedAt: new Date(String(value('started_at'))).toISOString() };
  const error = lockHeldError(deps.at.schema, holder);
  error.message += `; its lease expires at ${String(value('expires_at'))} unless that run renews it`;
  return error;
}
