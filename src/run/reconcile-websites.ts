/**
 * Removal reconciliation (docs/architecture.md#state-rules): websites the destination knows as
 * active but a complete listing no longer names are marked removed. The mass-removal guard
 * refuses a listing that would remove more than half of them (or all), before anything is
 * written: a key moved to another workspace must not wipe, nor fill, the warehouse.
 */
import { AivisError } from '../errors.ts';

export class MassRemovalError extends AivisError {}

export function websitesToRemove(activeIds: readonly string[], seenIds: ReadonlySet<string>): string[] {
  return activeIds.filter((id) => !seenIds.has(id));
}

export function checkMassRemoval(removed: number, active: number, allowed: boolean): void {
  if (allowed || removed === 0) return;
  if (removed * 2 <= active && removed < active) return;
  const share = removed === active ? 'all' : 'more than half';
  throw new MassRemovalError(
    `the website listing would mark ${removed} of ${active} known websites as removed (${share} of them); nothing was written. ` +
      'If the API key now belongs to another workspace, fix source.api_key. ' +
      'If the websites really were deleted, run again with --allow-mass-removal.',
  );
}
