/**
 * The run lock as a lease row in `_aivis_lock`: BigQuery has no sessions to hang an advisory
 * lock on. The table is created with its one row (`createLockTableSql`); a run takes the row
 * with one conditional UPDATE, renews the lease while it runs, and ends the lease when done;
 * a crashed run's lease simply expires. Of two runs taking it at once, BigQuery serializes the
 * two UPDATEs (or fails the later one with "Could not serialize access"): the loser is told
 * who holds the lock, like any refused run. Times come from the injected clock, so a lease's
 * expiry is testable without waiting.
 */
import type { DestinationLock, LockOwner } from '../../src/destination/destination.ts';
import { lockTable } from '../../src/destination/engine-tables.ts';
import { lockHeldError, SYNC_LOCK_NAME } from '../../src/destination/run-lock.ts';
import { column, type TableSpec } from '../../src/destination/table-spec.ts';
import { DestinationError, LockHeldError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import type { BigqueryClient, QueryParam } from './bigquery-client.ts';
import { apiErrorCode, isConcurrentUpdate } from './bigquery-errors.ts';
import {
  acquireLockSql,
  createLockRowSql,
  createLockTableSql,
  releaseLockSql,
  renewLockSql,
  selectLockSql,
  type TableRef,
} from './bigquery-sql.ts';

/** The shared lock row plus the lease's end: liveness is the lease, not a connection. */
export const leaseLockTable: TableSpec = {
  ...lockTable,
  columns: [...lockTable.columns, column('expires_at', 'timestamp', false)],
};

/** The end of a lease nobody holds. */
const EPOCH = '1970-01-01T00:00:00.000Z';

export interface LeaseOptions {
  /** How long a lease lasts without renewal: how long a crashed run blocks the next one. */
  readonly leaseMs: number;
  readonly now: () => Date;
}

/** A held lease. `assertHeld` waits for a renewal in flight, and fails once one found the lease taken. */
export interface BigqueryLease extends DestinationLock {
  assertHeld(): Promise<void>;
}

/** Creates the lock table with its row unless it exists (a racing run's creation counts). */
export async function createLeaseTable(client: BigqueryClient, ref: TableRef): Promise<void> {
  try {
    await client.query(createLockTableSql(ref, leaseLockTable, SYNC_LOCK_NAME));
  } catch (error) {
    if (apiErrorCode((error as Error).cause) !== 409) throw error;
  }
}

export async function acquireLease(
  client: BigqueryClient,
  ref: TableRef,
  owner: LockOwner,
  options: LeaseOptions,
  logger: Logger,
): Promise<BigqueryLease> {
  const expiresAt = () => new Date(options.now().getTime() + options.leaseMs).toISOString();
  const name: Record<string, QueryParam> = { name: { type: 'STRING', value: SYNC_LOCK_NAME } };
  const who: Record<string, QueryParam> = { ...name, run_id: { type: 'STRING', value: owner.runId } };
  const epoch: Record<string, QueryParam> = { epoch: { type: 'TIMESTAMP', value: EPOCH } };
  /** Rows taken; 0 when another run holds the lease or took it at this very moment. */
  const take = async () => {
    try {
      const taken = await client.query(acquireLockSql(ref), {
        ...who,
        host: { type: 'STRING', value: owner.host },
        pid: { type: 'INT64', value: String(owner.pid) },
        started_at: { type: 'STRING', value: owner.startedAt },
        now: { type: 'TIMESTAMP', value: options.now().toISOString() },
        expires_at: { type: 'TIMESTAMP', value: expiresAt() },
      });
      return taken.affectedRows;
    } catch (error) {
      if (isConcurrentUpdate(error)) return 0;
      throw error;
    }
  };
  let taken = await take();
  let rows = taken > 0 ? [] : await lockRows(client, ref);
  if (taken < 1 && rows.length === 0) {
    // A lock table of aivis 0.1 whose creator died before writing its row.
    await client.query(createLockRowSql(ref), { ...name, ...epoch });
    taken = await take();
    if (taken < 1) rows = await lockRows(client, ref);
  }
  if (taken < 1) throw heldError(client.dataset, rows, options.now());

  let lost: string | undefined;
  let released = false;
  let renewing: Promise<void> = Promise.resolve();
  let renewedAt = options.now().getTime();
  const renew = async () => {
    const renewed = await client.query(renewLockSql(ref), {
      ...who,
      expires_at: { type: 'TIMESTAMP', value: expiresAt() },
    });
    if (renewed.affectedRows < 1)
      lost = `the BigQuery run lock of ${client.dataset} expired and was taken by another run`;
    else renewedAt = options.now().getTime();
  };
  // Renew at a third of the lease, so two failed renewals in a row still leave time.
  const renewEvery = Math.max(1000, Math.floor(options.leaseMs / 3));
  const timer = setInterval(() => {
    renewing = renew().catch((error: unknown) => logger.warn('could not renew the BigQuery run lock', { error }));
  }, renewEvery);
  timer.unref();

  return {
    async assertHeld() {
      await renewing;
      // A paused process (or a timer that could not run) may have outlived its lease unnoticed.
      if (!lost && options.now().getTime() - renewedAt >= renewEvery) await renew();
      if (lost) throw new DestinationError(`${lost}; stopping before writing more`);
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await client.query(releaseLockSql(ref), { ...who, ...epoch });
    },
  };
}

async function lockRows(client: BigqueryClient, ref: TableRef): Promise<Record<string, unknown>[]> {
  return (await client.query(selectLockSql(ref), { name: { type: 'STRING', value: SYNC_LOCK_NAME } })).rows;
}

function heldError(dataset: string, rows: readonly Record<string, unknown>[], now: Date): Error {
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
  const error = lockHeldError(dataset, holder);
  error.message += ` (lease ends ${String(row.expires_at)}, ${seconds} s from now, unless renewed)`;
  return error;
}
