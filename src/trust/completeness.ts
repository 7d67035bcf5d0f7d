/**
 * Rows of `_aivis_completeness` (the table: `src/destination/engine-tables.ts`): how far each
 * stream and scope is known complete (docs/architecture.md#completeness-and-metric-versions).
 *
 * - A feed scope is complete through its committed frontier (`scan_upper_bound` of the last
 *   completed scan, the API's clock): every row the API published before it is in the tables.
 * - The listing (scope `*`) and a snapshot (scope: the website id) are read whole each run:
 *   they are complete through the moment aivis asked (this machine's clock).
 *
 * A row travels in the same durable unit as the rows (and the state) it vouches for, so it is
 * committed with them or not at all: never ahead of the data. `run_id` names the run that
 * moved it.
 */
import type { TableRows } from '../destination/destination.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import type { RowOf } from '../destination/table-spec.ts';
import type { StateEntry, StreamState } from '../state/state-entry.ts';
import { completenessTable } from '../tables/index.ts';

export type CompletenessRow = RowOf<typeof completenessTable>;

/** The unit part that commits `row` (none for null). */
export function completenessPart(row: CompletenessRow | null): TableRows[] {
  return row === null ? [] : [{ table: completenessTable, rows: [row] }];
}

/**
 * The completeness row a state entry about to be committed implies, or null when its frontier
 * did not move (a checkpoint mid-scan, a scan without `scan_upper_bound`): then the row already
 * stored still names the run that set it.
 */
export function completenessRow(
  entry: StateEntry,
  previous: StreamState | undefined,
  run: { runId: string; workspace: string },
): CompletenessRow | null {
  const frontier = entry.state.frontier;
  if (frontier === null || frontier === (previous?.frontier ?? null)) return null;
  return {
    stream: entry.stream,
    scope: entry.scope,
    complete_through: frontier,
    run_id: run.runId,
    updated_at: entry.updatedAt,
    _workspace: run.workspace,
  };
}

/** A listing or snapshot read whole, asked for at `askedAt`: complete through that moment. */
export function readWholeRow(
  stream: string,
  scope: string,
  askedAt: string,
  run: { runId: string; workspace: string },
): CompletenessRow {
  return {
    stream,
    scope,
    complete_through: askedAt,
    run_id: run.runId,
    updated_at: askedAt,
    _workspace: run.workspace,
  };
}

/**
 * The scope of a workspace's listing row. The key is `(stream, scope)` and website scopes are
 * one id space, but every workspace has a listing: `*` for `default` (as before workspaces),
 * `*:<name>` for the others, so they never overwrite each other.
 */
export function listingScope(workspace: string): string {
  return workspace === DEFAULT_WORKSPACE ? '*' : `*:${workspace}`;
}
