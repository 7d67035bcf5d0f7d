/**
 * The logical shape of a destination table. Streams produce rows in these logical types;
 * each connector maps them to its own SQL types (`connectors/<name>/<name>-types.ts`).
 */

/**
 * Logical column types and the JS value a row carries for each:
 * - `string`: string
 * - `int64`: number (safe integer) or bigint (beyond 2^53); connectors keep it exact
 * - `float64`: number
 * - `boolean`: boolean
 * - `timestamp`: ISO-8601 UTC string ending in `Z` (e.g. `2026-01-02T03:04:05.123456Z`)
 * - `json`: JSON text (a string holding serialized JSON)
 * Any column may hold null when `nullable` is true.
 */
export type ColumnType = 'string' | 'int64' | 'float64' | 'boolean' | 'timestamp' | 'json';

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
}

export interface TableSpec {
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  /** Upsert key. Key columns are never nullable. */
  readonly primaryKey: readonly string[];
  /** Columns an upsert writes when it inserts a row but leaves alone when it updates one. */
  readonly insertOnly?: readonly string[];
  /** Warehouse layout hints: a timestamp column to partition by day, columns to cluster by. */
  readonly partitionBy?: string;
  readonly clusterBy?: readonly string[];
}

export type CellValue = string | number | bigint | boolean | null;
export type Row = Readonly<Record<string, CellValue>>;

export function column(name: string, type: ColumnType, nullable = true): ColumnSpec {
  return { name, type, nullable };
}
