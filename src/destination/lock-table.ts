/**
 * The run lock's visible half: one `_aivis_lock` row naming the holder, so a refused run can
 * say who holds the lock. Liveness comes from elsewhere (a connection-bound advisory lock, a
 * file lock, a lease), depending on the destination.
 */
import { LockHeldError } from '../errors.ts';
import type { DestinationLock, LockOwner } from './destination.ts';
import { column, type Row, type TableSpec } from './table-spec.ts';

export const lockTable: TableSpec = {
  name: '_aivis_lock',
  primaryKey: ['name'],
  columns: [
    column('name', 'string', false),
    column('run_id', 'string', false),
    column('host', 'string', false),
    column('pid', 'int64', false),
    // Text, not a timestamp: the refusal message repeats the holder's own words verbatim.
    column('started_at', 'string', false),
  ],
};

/** The one lock row's key: one sync lock per schema. */
export const SYNC_LOCK_NAME = 'sync';

export function lockRow(owner: LockOwner): Row {
  return { name: SYNC_LOCK_NAME, run_id: owner.runId, host: owner.host, pid: owner.pid, started_at: owner.startedAt };
}

/** The error a refused run shows; `holder` is undefined when the holder left no row yet. */
export function lockHeldError(schema: string, holder: LockOwner | undefined): LockHeldError {
  const who = holder
    ? `run ${holder.runId} on ${holder.host} pid ${holder.pid} since ${holder.startedAt}`
    : 'a run that has not recorded its name yet';
  return new LockHeldError(`another aivis run holds the lock on schema "${schema}": ${who}`);
}

/** A `DestinationLock` whose `release` runs `free` once, however often it is called. */
export function releaseOnce(free: () => Promise<void>): DestinationLock {
  let released: Promise<void> | undefined;
  return { release: () => (released ??= free()) };
}
