/** The websites a destination holds as active (`_removed_at` NULL), and marking them removed. */
import type { SqlParam } from '../bookkeeping.ts';
import type { Destination } from '../destination.ts';
import { REMOVABLE_TABLE } from '../engine-tables.ts';
import { storedWorkspace, WORKSPACE_COLUMN } from '../workspace.ts';
import { stringParamLists } from './string-lists.ts';

/** An active website (`_removed_at` NULL) and the workspace it was synced from. */
export interface ActiveWebsite {
  readonly id: string;
  readonly workspace: string;
}

/**
 * Websites whose `_removed_at` is NULL, each with its workspace (NULL `_workspace`:
 * `default`); none before the table exists. The engine compares a workspace's own with its
 * complete listing and applies the mass-removal guard before it writes anything, so a key
 * moved to another workspace can neither wipe nor pollute the warehouse; another workspace's
 * are ids it must not take over.
 */
export async function listActiveWebsites(destination: Destination): Promise<ActiveWebsite[]> {
  const s = destination.bookkeeping();
  if (!(await s.tableExists(REMOVABLE_TABLE.name))) return [];
  const [id, workspace] = [REMOVABLE_TABLE.id, WORKSPACE_COLUMN.name].map((name) => s.column(name));
  const rows = await s.select(
    `SELECT ${id} AS ${id}, ${workspace} AS ${workspace} FROM ${s.table(REMOVABLE_TABLE.name)} WHERE ${s.column(REMOVABLE_TABLE.removedAt)} IS NULL ORDER BY 1`,
    [],
  );
  // By position, whatever case the warehouse gave the names.
  return rows.map((row) => {
    const [rowId, rowWorkspace] = Object.values(row);
    return { id: String(rowId), workspace: storedWorkspace(rowWorkspace) };
  });
}

/** Sets `_removed_at` on these websites (only where it is NULL: they keep their first removal time). */
export async function markWebsitesRemoved(
  destination: Destination,
  ids: readonly string[],
  removedAt: string,
): Promise<void> {
  const s = destination.bookkeeping();
  const removed = s.column(REMOVABLE_TABLE.removedAt);
  const at: SqlParam = { type: 'timestamp', value: removedAt };
  for (const list of stringParamLists(ids)) {
    const placeholders = list.map((param, i) => s.placeholder(i + 1, param)).join(', ');
    await s.change(
      `UPDATE ${s.table(REMOVABLE_TABLE.name)} SET ${removed} = ${s.placeholder(0, at)} WHERE ${removed} IS NULL AND ${s.column(REMOVABLE_TABLE.id)} IN (${placeholders})`,
      [at, ...list],
    );
  }
}
