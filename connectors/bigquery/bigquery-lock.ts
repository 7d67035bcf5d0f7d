/**
 * The run lock on BigQuery: the shared lease (src/destination/lease-lock.ts) over BigQuery's
 * statements. The table is created with its one row (`createLockTableSql`), so taking the
 * lock is always an UPDATE that sees every row of the name; of two runs taking it at once,
 * BigQuery serializes the two UPDATEs (or fails the later one with "Could not serialize
 * access"): the loser is told who holds the lock, like any refused run.
 */
import type { LockOwner } from '../../src/destination/destination.ts';
import { LEASE_EPOCH, type LeaseLock, leaseLockTable, takeLease } from '../../src/destination/lease-lock.ts';
import { lockHeldError, SYNC_LOCK_NAME, syncLockName } from '../../src/destination/run-lock.ts';
import { LockHeldError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { apiErrorCode, type BigqueryClient, type QueryParam } from './bigquery-client.ts';
import { isConcurrentUpdate } from './bigquery-retry.ts';
import {
  acquireLockSql,
  createLockRowSql,
  createLockTableSql,
  releaseLockSql,
  renewLockSql,
  selectLockSql,
  type TableRef,
} from './bigquery-sql.ts';

/** Creates the lock table with its row unless it exists (a racing run's creation counts). */
export async function createLeaseTable(client: BigqueryClient, ref: TableRef): Promise<void> {
  try {
    await client.query(createLockTableSql(ref, leaseLockTable, SYNC_LOCK_NAME));
  } catch (error) {
    if (apiErrorCode((error as Error).cause) !== 409) throw error;
  }
}

export function acquireBigqueryLock(
  client: BigqueryClient,
  ref: TableRef,
  owner: LockOwner,
  clock: { now: () => Date; logger: Logger },
): Promise<LeaseLock> {
  const name: Record<string, QueryParam> = { name: { type: 'STRING', value: syncLockName(owner.workspace) } };
  const who: Record<string, QueryParam> = { ...name, run_id: { type: 'STRING', value: owner.runId } };
  const epoch: Record<string, QueryParam> = { epoch: { type: 'TIMESTAMP', value: LEASE_EPOCH } };
  const timestamp = (value: string): QueryParam => ({ type: 'TIMESTAMP', value });
  /** Rows taken; 0 when another run holds the lease or took it at this very moment. */
  const update = async (expiresAt: string, now: string) => {
    try {
      const taken = await client.query(acquireLockSql(ref), {
        ...who,
        host: { type: 'STRING', value: owner.host },
        pid: { type: 'INT64', value: String(owner.pid) },
        started_at: { type: 'STRING', value: owner.startedAt },
        now: timestamp(now),
        expires_at: timestamp(expiresAt),
      });
      return taken.affectedRows;
    } catch (error) {
      if (isConcurrentUpdate(error)) return 0;
      throw error;
    }
  };
  const lockRows = async () => (await client.query(selectLockSql(ref), name)).rows;
  /** The rows a refused take already read, so the refusal need not read them again. */
  let refusedBy: Record<string, unknown>[] | undefined;
  return takeLease(
    {
      async take(expiresAt, now) {
        if ((await update(expiresAt, now)) > 0) return true;
        refusedBy = await lockRows();
        if (refusedBy.length > 0) return false;
        refusedBy = undefined;
        // A workspace's first run (its row is made here), or a lock table of aivis 0.1 whose creator died before writing its row.
        await client.query(createLockRowSql(ref), { ...name, ...epoch });
        return (await update(expiresAt, now)) > 0;
      },
      renew: async (expiresAt) =>
        (await client.query(renewLockSql(ref), { ...who, expires_at: timestamp(expiresAt) })).affectedRows > 0,
      async end() {
        await client.query(releaseLockSql(ref), { ...who, ...epoch });
      },
      heldError: async (now) => heldError(client.dataset, owner.workspace, refusedBy ?? (await lockRows()), now),
    },
    { ...clock, lostMessage: `the BigQuery run lock of ${client.dataset} expired and was taken by another run` },
  );
}

function heldError(dataset: string, workspace: string, rows: readonly Record<string, unknown>[], now: Date): Error {
  const row = rows.find((r) => Date.parse(String(r.expires_at)) >= now.getTime());
  if (!row)
    return new LockHeldError(
      `could not take the BigQuery run lock of ${dataset}: another run held it and let it go a moment ago; run again`,
    );
  const holder = {
    runId: String(row.run_id),
    host: String(row.host),
    pid: Number(row.pid),
    startedAt: String(row.started_at),
  };
  const seconds = Math.round((Date.parse(String(row.expires_at)) - now.getTime()) / 1000);
  const error = lockHeldError(dataset, workspace, holder);
  error.message += ` (lease ends ${String(row.expires_at)}, ${seconds} s from now, unless renewed)`;
  return error;
}
