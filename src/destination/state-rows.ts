/**
 * State entries travel as ordinary rows of `_aivis_state`, so a connector commits them with
 * the same upsert path (and in the same transaction) as the data they describe.
 */
import { stateTable } from '../tables/engine.ts';
import type { StateEntry, StreamState, TableRows } from './destination.ts';

export function stateTableRows(entries: readonly StateEntry[]): TableRows {
  return {
    table: stateTable,
    rows: entries.map((e) => ({
      stream: e.stream,
      scope: e.scope,
      state: JSON.stringify({ frontier: e.state.frontier, cursor: e.state.cursor, pending_upper_bound: e.state.pending_upper_bound }),
      updated_at: e.updatedAt,
    })),
  };
}

/** A stored `_aivis_state` row read back; `state` may arrive as JSON text or parsed. */
export function stateEntryFromRow(row: { stream: string; scope: string; state: unknown; updated_at: string }): StateEntry {
  const parsed = (typeof row.state === 'string' ? JSON.parse(row.state) : row.state) as Partial<StreamState>;
  return {
    stream: row.stream,
    scope: row.scope,
    state: {
      frontier: parsed.frontier ?? null,
      cursor: parsed.cursor ?? null,
      pending_upper_bound: parsed.pending_upper_bound ?? null,
    },
    updatedAt: row.updated_at,
  };
}
