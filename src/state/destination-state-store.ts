import type { Destination, FlushResult } from '../destination/destination.ts';
import type { Flush, StateEntry } from './state-entry.ts';
import { commitFlush, readStateEntries } from './state-rows.ts';
import type { StateStore } from './state-store.ts';

/** State in the destination's `_aivis_state` table, committed with the rows (the default). */
export class DestinationStateStore implements StateStore {
  readonly #destination: Destination;

  constructor(destination: Destination) {
    this.#destination = destination;
  }

  load(): Promise<StateEntry[]> {
    return readStateEntries(this.#destination);
  }

  commit(destination: Destination, flush: Flush): Promise<FlushResult> {
    return commitFlush(destination, flush);
  }

  delete(match: { stream?: string; scope?: string }): Promise<number> {
    return this.#destination.deleteState(match);
  }
}
