/** How many rows runs rejected, for `aivis status`. */
import type { Destination } from '../destination.ts';
import { rejectedTable } from '../engine-tables.ts';
import { stringParamLists } from './string-lists.ts';

/** `_aivis_rejected` rows last written by these runs, counted in the warehouse (rows hold `_raw`); 0 before the table exists. */
export async function countRejected(destination: Destination, runIds: readonly string[]): Promise<number> {
  const s = destination.bookkeeping();
  if (runIds.length === 0 || !(await s.tableExists(rejectedTable.name))) return 0;
  let count = 0;
  for (const list of stringParamLists(runIds)) {
    const placeholders = list.map((param, i) => s.placeholder(i, param)).join(', ');
    const [row] = await s.select(
      `SELECT COUNT(*) AS n FROM ${s.table(rejectedTable.name)} WHERE ${s.column('_run_id')} IN (${placeholders})`,
      list,
    );
    // The one column, whatever case and integer type the warehouse gave it.
    count += Number(Object.values(row ?? {})[0] ?? 0);
  }
  return count;
}
