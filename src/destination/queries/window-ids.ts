/** The ids of one website's rows within a window of a timestamp column, for `aivis verify` (docs/architecture.md#verify). */
import type { SqlParam } from '../bookkeeping.ts';
import type { Destination } from '../destination.ts';

/** One website's rows of a table within a window of a timestamp column. Both ends inclusive; without `until` the window is open above. */
export interface WindowIdsQuery {
  readonly table: string;
  /** The column that tells rows of one website apart (`id`, or `analysis_id` for history points). */
  readonly idColumn: string;
  readonly websiteId: string;
  /** The timestamp column the window applies to; rows where it is NULL are outside every window. */
  readonly stampColumn: string;
  /** Stored form (`microsecondTimestamp`): the comparison is the warehouse's, at its precision. */
  readonly since: string;
  readonly until?: string;
}

/** `idColumn` of every row the query's window holds, in no particular order; none when the table does not exist yet. */
export async function windowIds(destination: Destination, query: WindowIdsQuery): Promise<string[]> {
  const s = destination.bookkeeping();
  if (!(await s.tableExists(query.table))) return [];
  const id = s.column(query.idColumn);
  const stamp = s.column(query.stampColumn);
  const params: SqlParam[] = [
    { type: 'string', value: query.websiteId },
    { type: 'timestamp', value: query.since },
    ...(query.until === undefined ? [] : [{ type: 'timestamp', value: query.until } as const]),
  ];
  const conditions = [
    `${s.column('website_id')} = ${s.placeholder(0, params[0]!)}`,
    `${stamp} >= ${s.placeholder(1, params[1]!)}`,
    ...(query.until === undefined ? [] : [`${stamp} <= ${s.placeholder(2, params[2]!)}`]),
  ];
  const rows = await s.select(
    `SELECT ${id} AS ${id} FROM ${s.table(query.table)} WHERE ${conditions.join(' AND ')}`,
    params,
  );
  // The one column, whatever case the warehouse gave its name.
  return rows.map((row) => String(Object.values(row)[0]));
}
