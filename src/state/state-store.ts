/**
 * Where saved state lives (`state.store`, docs/architecture.md#state-rules). Either inside the
 * destination, committed in the same transaction as the rows it describes, or in a local file
 * written only after the destination has made those rows durable. Either way state never runs
 * ahead of data.
 */
import type { Destination, FlushResult } from '../destination/destination.ts';
import type { Flush, StateEntry } from './state-entry.ts';

export interface StateStore {
  /** Every saved entry. */
  load(): Promise<StateEntry[]>;
  /** Makes the flush's rows durable, then (or atomically with them) its state. */
  commit(destination: Destination, flush: Flush): Promise<FlushResult>;
  /** Deletes matching entries (all when the filter is empty); returns how many. */
  delete(match: { stream?: string; scope?: string }): Promise<number>;
}

export function stateKey(stream: string, scope: string): string {
  return `${stream}\u0000${scope}`;
}

export function matches(entry: StateEntry, match: { stream?: string; scope?: string }): boolean {
  return (
    (match.stream === undefined || entry.stream === match.stream) &&
    (match.scope === undefined || entry.scope === match.scope)
  );
}
