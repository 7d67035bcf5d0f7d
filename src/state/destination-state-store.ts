import type { Destination, FlushResult } from '../destination/destination.ts';
import { deleteState } from '../destination/queries/saved-state.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import type { Flush, StateEntry } from './state-entry.ts';
import { commitFlush, readStateEntries } from './state-rows.ts';
import type { StateStore } from './state-store.ts';

/**
 * State in the destination's `_aivis_state` table, committed with the rows (the default). One
 * store per workspace: it reads, writes and deletes that workspace's rows only.
 */
export class DestinationStateStore implements StateStore {
  readonly #destination: Destination;
  readonly #workspace: string;

  constructor(destination: Destination, workspace = DEFAULT_WORKSPACE) {
    this.#destination = destination;
    this.#workspace = workspace;
  }

  load(): Promise<StateEntry[]> {
    return readStateEntries(this.#destination, this.#workspace);
  }

  commit(destination: Destination, flush: Flush): Promise<FlushResult> {
    return commitFlush(destination, flush, this.#workspace);
  }

  delete(match: { stream?: string; scope?: string }): Promise<number> {
    return deleteState(this.#destination, { ...match, workspace: this.#workspace });
  }
}
