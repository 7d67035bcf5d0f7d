/** What every run lock shares, however it keeps liveness: the holder's row, the refusal, a release that runs once. */
import { LockHeldError } from '../errors.ts';
import type { DestinationLock, LockOwner } from './destination.ts';
import type { Row } from './table-spec.ts';

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
