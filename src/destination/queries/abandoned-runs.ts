/** `_aivis_runs` rows left `running` by runs that were killed before they could record their end. */
import type { SqlParam } from '../bookkeeping.ts';
import type { Destination } from '../destination.ts';
import { runsTable } from '../engine-tables.ts';
import { WORKSPACE_COLUMN, workspaceCondition } from '../workspace.ts';

/**
 * Marks `workspace`'s `_aivis_runs` rows still `running`, other than `currentRunId`, as
 * `abandoned`: called while holding that workspace's run lock, so no other run of it is alive
 * and those rows belong to runs that were killed. `finished_at` stays NULL (unknown).
 */
export async function markAbandonedRuns(
  destination: Destination,
  currentRunId: string,
  workspace: string,
): Promise<void> {
  const s = destination.bookkeeping();
  const status = s.column('status');
  const current: SqlParam = { type: 'string', value: currentRunId };
  const ofWorkspace: SqlParam = { type: 'string', value: workspace };
  // Only this workspace's: another workspace's run may be alive under its own lock.
  await s.change(
    `UPDATE ${s.table(runsTable.name)} SET ${status} = 'abandoned' WHERE ${status} = 'running' AND ${s.column('id')} <> ${s.placeholder(0, current)} AND ${workspaceCondition(s.column(WORKSPACE_COLUMN.name), s.placeholder(1, ofWorkspace))}`,
    [current, ofWorkspace],
  );
}
