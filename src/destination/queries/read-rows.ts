/** A small bookkeeping table read whole (`_aivis_runs`, `_aivis_completeness`, `metric_versions`). */
import type { Destination } from '../destination.ts';
import type { TableSpec } from '../table-spec.ts';

/**
 * Every row of `table` in logical form, as `src/destination/table-spec.ts` describes it;
 * none before the table exists. For small tables only: it reads them whole.
 */
export async function readRows(destination: Destination, table: TableSpec): Promise<Record<string, unknown>[]> {
  const s = destination.bookkeeping();
  if (!(await s.tableExists(table.name))) return [];
  return s.selectAll(table);
}
