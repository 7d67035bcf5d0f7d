/** The committed `_aivis_state` rows of a workspace: read for a run's start, deleted by `aivis reset`. */
import type { SqlParam } from '../bookkeeping.ts';
import type { Destination } from '../destination.ts';
import { type StoredStateRow, stateTable } from '../engine-tables.ts';
import { storedWorkspace, WORKSPACE_COLUMN, workspaceCondition } from '../workspace.ts';

/** Every committed `_aivis_state` row of `workspace` (a NULL `_workspace` is `default`); none before the first sync. */
export async function readState(destination: Destination, workspace: string): Promise<StoredStateRow[]> {
  const s = destination.bookkeeping();
  if (!(await s.tableExists(stateTable.name))) return [];
  return (await s.selectAll(stateTable))
    .filter((row) => storedWorkspace(row._workspace) === workspace)
    .map((row) => ({
      stream: String(row.stream),
      scope: String(row.scope),
      state: row.state,
      updated_at: String(row.updated_at),
      _workspace: workspace,
    }));
}

/** Deletes the workspace's state entries matching the filter (all of them when it has no more); returns how many. */
export async function deleteState(
  destination: Destination,
  match: { workspace: string; stream?: string; scope?: string },
): Promise<number> {
  const s = destination.bookkeeping();
  if (!(await s.tableExists(stateTable.name))) return 0;
  const filters = (['stream', 'scope'] as const).filter((name) => match[name] !== undefined);
  const params = filters.map((name): SqlParam => ({ type: 'string', value: match[name]! }));
  const conditions = filters.map((name, i) => `${s.column(name)} = ${s.placeholder(i, params[i]!)}`);
  const workspace: SqlParam = { type: 'string', value: match.workspace };
  conditions.push(workspaceCondition(s.column(WORKSPACE_COLUMN.name), s.placeholder(params.length, workspace)));
  return s.change(`DELETE FROM ${s.table(stateTable.name)} WHERE ${conditions.join(' AND ')}`, [...params, workspace]);
}
