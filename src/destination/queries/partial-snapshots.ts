/** The websites whose latest analytics snapshot was partial (`is_partial`): the run planner reads them again. */
import type { Destination } from '../destination.ts';

/** Website ids whose `analytics_latest` row says `is_partial`; none before the table exists. */
export async function partialSnapshots(destination: Destination): Promise<Set<string>> {
  const s = destination.bookkeeping();
  if (!(await s.tableExists('analytics_latest'))) return new Set();
  const id = s.column('website_id');
  const rows = await s.select(
    `SELECT ${id} AS ${id} FROM ${s.table('analytics_latest')} WHERE ${s.column('is_partial')} = TRUE`,
    [],
  );
  // By position, whatever case the warehouse gave the name.
  return new Set(rows.map((row) => String(Object.values(row)[0])));
}
