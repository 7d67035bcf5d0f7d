/**
 * The upsert Postgres and DuckDB share: `INSERT ... SELECT ... ON CONFLICT (key) DO UPDATE`.
 * The staged rows are unique per key already (`flushParts` keeps the last row of each key);
 * insertOnly columns are never in the SET list.
 */
import { quoteIdentifier } from './sql-identifier.ts';
import type { ColumnSpec, TableSpec } from './table-spec.ts';
import { updatableColumns } from './upsert-columns.ts';

export interface OnConflictUpsert {
  /** Quoted, qualified target table. */
  readonly target: string;
  /** Quoted staging table holding the rows. */
  readonly staging: string;
  /** The SELECT expression reading a column from staging (e.g. a cast); defaults to the column. */
  readonly read?: (column: ColumnSpec) => string;
}

export function onConflictUpsert(table: TableSpec, { target, staging, read }: OnConflictUpsert): string {
  const list = (names: readonly string[]) => names.map(quoteIdentifier).join(', ');
  const key = list(table.primaryKey);
  const select = table.columns
    .map((c) => (read ? `${read(c)} AS ${quoteIdentifier(c.name)}` : quoteIdentifier(c.name)))
    .join(', ');
  const updates = updatableColumns(table).map((c) => `${quoteIdentifier(c)} = EXCLUDED.${quoteIdentifier(c)}`);
  return [
    `INSERT INTO ${target} (${list(table.columns.map((c) => c.name))})`,
    `SELECT ${select} FROM ${staging}`,
    updates.length ? `ON CONFLICT (${key}) DO UPDATE SET ${updates.join(', ')}` : `ON CONFLICT (${key}) DO NOTHING`,
  ].join('\n');
}
