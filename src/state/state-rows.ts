/**
 * State entries travel as ordinary rows of `_aivis_state`, so a destination commits them with
 * the same upsert path (and in the same transaction) as the data they describe. The state
 * store turns a flush into table parts here, once, for every destination.
 */
import type { Destination, FlushResult, TableRows } from '../destination/destination.ts';
import { type StoredStateRow, stateTable } from '../destination/engine-tables.ts';
import { flushParts } from '../destination/flush-parts.ts';
import { readState } from '../destination/queries/saved-state.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import type { Flush, StateEntry } from './state-entry.ts';
import { parseStreamState } from './stream-state.ts';

function stateTableRows(entries: readonly StateEntry[], workspace: string): TableRows {
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
      _workspace: workspace,
    })),
  };
}

/**
 * A stored `_aivis_state` row read back. Read defensively (`parseStreamState`): a hand-edited
 * row never sends a malformed `updated_since`.
 */
function stateEntryFromRow(row: StoredStateRow): StateEntry {
  const parsed: unknown = typeof row.state === 'string' ? JSON.parse(row.state) : row.state;
  return { stream: row.stream, scope: row.scope, state: parseStreamState(parsed), updatedAt: row.updated_at };
}

/**
 * Commits a flush: its rows, then its state entries (of `workspace`) as the last part
 * (`flushParts` dedupes). `rowsWritten` counts the data tables only.
 */
export async function commitFlush(
  destination: Destination,
  flush: Flush,
  workspace = DEFAULT_WORKSPACE,
): Promise<FlushResult> {
  const state = flush.state.length > 0 ? [stateTableRows(flush.state, workspace)] : [];
  const result = await destination.commit(flushParts([...flush.tables, ...state]));
  const { [stateTable.name]: _state, ...rowsWritten } = result.rowsWritten;
  return { ...result, rowsWritten };
}

/** Every state entry the destination has committed for `workspace`. */
export async function readStateEntries(destination: Destination, workspace = DEFAULT_WORKSPACE): Promise<StateEntry[]> {
  return (await readState(destination, workspace)).map(stateEntryFromRow);
}
