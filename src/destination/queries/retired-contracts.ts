/** `_aivis_contracts` rows past the table's retention (docs/served-contract.md#which-document-is-in-force). */
import type { SqlParam } from '../bookkeeping.ts';
import type { Destination } from '../destination.ts';
import { contractsTable } from '../engine-tables.ts';
import { WORKSPACE_COLUMN, workspaceCondition } from '../workspace.ts';
import { stringParamLists } from './string-lists.ts';

/** Deletes `workspace`'s kept documents of these digests; returns how many rows went. */
export async function deleteKeptContracts(
  destination: Destination,
  workspace: string,
  sha256s: readonly string[],
): Promise<number> {
  const s = destination.bookkeeping();
  if (sha256s.length === 0 || !(await s.tableExists(contractsTable.name))) return 0;
  const ofWorkspace: SqlParam = { type: 'string', value: workspace };
  let deleted = 0;
  for (const list of stringParamLists(sha256s)) {
    const placeholders = list.map((param, i) => s.placeholder(i + 1, param)).join(', ');
    deleted += await s.change(
      `DELETE FROM ${s.table(contractsTable.name)} WHERE ${workspaceCondition(s.column(WORKSPACE_COLUMN.name), s.placeholder(0, ofWorkspace))} AND ${s.column('sha256')} IN (${placeholders})`,
      [ofWorkspace, ...list],
    );
  }
  return deleted;
}
