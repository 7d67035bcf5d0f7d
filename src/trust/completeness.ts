/**
 * `_aivis_completeness`: how far each stream and scope is known complete. `complete_through`
 * is the committed frontier (`scan_upper_bound` of the last completed scan, see
 * docs/architecture.md#state-rules): every row the API published before it is in the tables.
 * Written in the same flush as the state that moved the frontier, so it is never ahead of the
 * data either; `run_id` is the run whose scan moved it there.
 */
import type { StateEntry, StreamState } from '../state/state-entry.ts';
import { column, type Row, type TableSpec } from '../destination/table-spec.ts';

export const completenessTable: TableSpec = {
  name: '_aivis_completeness',
  primaryKey: ['stream', 'scope'],
  columns: [
    column('stream', 'string', false),
    column('scope', 'string', false),
    column('complete_through', 'timestamp', false),
    column('run_id', 'string', false),
    column('updated_at', 'timestamp', false),
  ],
};

/**
 * The completeness row a state entry about to be committed implies, or null when its frontier
 * did not move (a checkpoint mid-scan, a scan without `scan_upper_bound`): then the row already
 * stored still names the run that set it.
 */
export function completenessRow(entry: StateEntry, previous: StreamState | undefined, runId: string): Row | null {
  const frontier = entry.state.frontier;
  if (frontier === null || frontier === (previous?.frontier ?? null)) return null;
  return {
    stream: entry.stream,
    scope: entry.scope,
    complete_through: frontier,
    run_id: runId,
    updated_at: entry.updatedAt,
  };
}
