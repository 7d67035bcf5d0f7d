/** What every run lock shares, however it keeps liveness: the holder's row, the refusal, a release that runs once. */
import { LockHeldError } from '../errors.ts';
import type { DestinationLock, LockOwner } from './destination.ts';
import type { Row } from './table-spec.ts';
import { DEFAULT_WORKSPACE } from './workspace.ts';

/** The lock row's key of the `default` workspace: the name every run used before workspaces. */
export const SYNC_LOCK_NAME = 'sync';

/**
 * The lock's name for a workspace: one sync lock per schema and workspace
 * (docs/architecture.md#many-workspaces). `default` keeps the old name, so a run of an older
 * version on the same schema still excludes it.
 */
export function syncLockName(workspace: string): string {
  return workspace === DEFAULT_WORKSPACE ? SYNC_LOCK_NAME : `${SYNC_LOCK_NAME}:${workspace}`;
}

export function lockRow(owner: LockOwner): Row {
  return {
    name: syncLockName(owner.workspace),
    run_id: owner.runId,
    host: owner.host,
    pid: owner.pid,
    started_at: owner.startedAt,
  };
}

/** Who holds a lock, as its row says (the row's name already says the workspace). */
export type LockHolder = Omit<LockOwner, 'workspace'>;

/**
 * The error a refused run shows; `holder` is undefined when the holder left no row yet.
 * `workspace` is named unless it is `default`, whose message reads as it did before workspaces.
 */
export function lockHeldError(schema: string, workspace: string, holder: LockHolder | undefined): LockHeldError {
  const who = holder
    ? `run ${holder.runId} on ${holder.host} pid ${holder.pid} since ${holder.startedAt}`
    : 'a run that has not recorded its name yet';
  const of = workspace === DEFAULT_WORKSPACE ? '' : ` for workspace "${workspace}"`;
  return new LockHeldError(`another aivis run holds the lock on schema "${schema}"${of}: ${who}`);
}

/** A `DestinationLock` whose `release` runs `free` once, however often it is called. */
export function releaseOnce(free: () => Promise<void>): DestinationLock {
  let released: Promise<void> | undefined;
  return { release: () => (released ??= free()) };
}
