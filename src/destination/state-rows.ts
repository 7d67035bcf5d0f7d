/**
 * State entries travel as ordinary rows of `_aivis_state`, so a connector commits them with
 * the same upsert path (and in the same transaction) as the data they describe.
 */
import { stateTable } from './engine-tables.ts';
import { parseStreamState } from '../state/stream-state.ts';
import type { StateEntry, TableRows } from './destination.ts';

export function stateTableRows(entries: readonly StateEntry[]): TableRows {
  return {
    table: stateTable,
    rows: entries.map((e) => ({
      stream: e.stream,
      scope: e.scope,
      state: JSON.stringify({
        frontier: e.state.frontier,
        cursor: e.state.cursor,
        pending_upper_bound: e.state.pending_upper_bound,
      }),
      updated_at: e.updatedAt,
    })),
  };
}

/**
 * A stored `_aivis_state` row read back; `state` may arrive as JSON text or parsed. Read
 * defensively (`parseStreamState`): a hand-edited row never sends a malformed `updated_since`.
 */
export function stateEntryFromRow(row: {
  stream: string;
  scope: string;
  state: unknown;
  updated_at: string;
}): StateEntry {
  const parsed: unknown = typeof row.state === 'string' ? JSON.parse(row.state) : row.state;
  return { stream: row.stream, scope: row.scope, state: parseStreamState(parsed), updatedAt: row.updated_at };
}
