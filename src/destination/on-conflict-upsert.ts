/**
 * The upsert Postgres and DuckDB share: `INSERT ... SELECT DISTINCT ON (key) ... ORDER BY key,
 * ordinal DESC ON CONFLICT (key) DO UPDATE`. DISTINCT ON keeps the last row of each key in
 * the flush; insertOnly columns are never in the SET list.
 */
import { quoteIdentifier } from './sql-identifier.ts';
import type { ColumnSpec, TableSpec } from './table-spec.ts';
import { updatableColumns } from './upsert-columns.ts';

/** The staging column numbering rows in flush order, so the last row of a key wins. */
export const STAGING_ORDINAL = '_aivis_ordinal';

export interface OnConflictUpsert {
  /** Quoted, qualified target table. */
  readonly target: string;
  /** Quoted staging table holding the rows plus `STAGING_ORDINAL`. */
  readonly staging: string;
  /** The SELECT expression reading a column from staging (e.g. a cast); defaults to the column. */
  readonly read?: (column: ColumnSpec) => string;
}

export function onConflictUpsert(table: TableSpec, { target, staging, read }: OnConflictUpsert): string {
  const list = (names: readonly string[]) => names.map(quoteIdentifier).join(', ');
  const key = list(table.primaryKey);
  const select = table.columns.map((c) => (read ? `${read(c)} AS ${quoteIdentifier(c.name)}` : quoteIdentifier(c.name))).join(', ');
  const updates = updatableColumns(table).map((c) => `${quoteIdentifier(c)} = EXCLUDED.${quoteIdentifier(c)}`);
  return [
    `INSERT INTO ${target} (${list(table.columns.map((c) => c.name))})`,
    `SELECT DISTINCT ON (${key}) ${select} FROM ${staging}`,
    `ORDER BY ${key}, ${quoteIdentifier(STAGING_ORDINAL)} DESC`,
    updates.length ? `ON CONFLICT (${key}) DO UPDATE SET ${updates.join(', ')}` : `ON CONFLICT (${key}) DO NOTHING`,
  ].join('\n');
}
