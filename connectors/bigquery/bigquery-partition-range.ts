/**
 * The day partitions a flush's rows fall in, for a table partitioned by day of a timestamp
 * column, as the constants (query parameters) that `insideRange` and `outsideRange` in
 * `bigquery-sql.ts` compare the partitioning column with: BigQuery reads, and bills, only the
 * partitions such a comparison leaves.
 */
import type { Row } from '../../src/destination/table-spec.ts';
import type { QueryParam } from './bigquery-client.ts';

/** Days `[from, to)` (midnights UTC, as ISO text) and whether the NULL partition is in. */
export interface PartitionRange {
  readonly from?: string;
  readonly to?: string;
  readonly nulls: boolean;
}

const DAY_MS = 86_400_000;

/** The partitions `rows` land in; timestamps are in stored form (`YYYY-MM-DDThh:mm:ss.ffffffZ`). */
export function partitionRange(rows: readonly Row[], column: string): PartitionRange {
  let first: string | undefined;
  let last: string | undefined;
  let nulls = false;
  for (const row of rows) {
    const value = row[column];
    if (typeof value !== 'string') {
      nulls = true;
      continue;
    }
    const day = value.slice(0, 10);
    if (first === undefined || day < first) first = day;
    if (last === undefined || day > last) last = day;
  }
  return { ...days(first, last), nulls };
}

/** `range` grown to also cover partitions between `earliest` and `latest` (timestamps), and NULL if `nulls`. */
export function widenRange(
  range: PartitionRange,
  earliest: string | null,
  latest: string | null,
  nulls: boolean,
): PartitionRange {
  const bounds = [range.from?.slice(0, 10), earliest?.slice(0, 10)].filter((d): d is string => d !== undefined).sort();
  const ends = [
    range.to === undefined ? undefined : new Date(Date.parse(range.to) - DAY_MS).toISOString().slice(0, 10),
    latest?.slice(0, 10),
  ]
    .filter((d): d is string => d !== undefined)
    .sort();
  return { ...days(bounds[0], ends.at(-1)), nulls: range.nulls || nulls };
}

function days(first: string | undefined, last: string | undefined): Pick<PartitionRange, 'from' | 'to'> {
  if (first === undefined || last === undefined) return {};
  return { from: `${first}T00:00:00.000Z`, to: new Date(Date.parse(`${last}T00:00:00.000Z`) + DAY_MS).toISOString() };
}

export function rangeParams(range: PartitionRange): Record<string, QueryParam> {
  if (range.from === undefined || range.to === undefined) return {};
  return { range_from: { type: 'TIMESTAMP', value: range.from }, range_to: { type: 'TIMESTAMP', value: range.to } };
}
