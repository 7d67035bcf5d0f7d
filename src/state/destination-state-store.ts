import type { Destination, Flush, FlushResult, StateEntry } from '../destination/destination.ts';
import type { StateStore } from './state-store.ts';

/** State in the destination's `_aivis_state` table, committed with the rows (the default). */
export class DestinationStateStore implements StateStore {
  readonly #destination: Destination;

  constructor(destination: Destination) {
    this.#destination = destination;
  }

  load(): Promise<StateEntry[]> {
    return this.#destination.readState();
  }

  commit(destination: Destination, flush: Flush): Promise<FlushResult> {
    return destination.commit(flush);
  }

  delete(match: { stream?: string; scope?: string }): Promise<number> {
    return this.#destination.deleteState(match);
  }
}
