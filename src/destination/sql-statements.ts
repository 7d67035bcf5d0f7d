/**
 * Statements that read the same in every SQL destination with ANSI quoting and `$n`
 * parameters (Postgres, DuckDB); the bookkeeping every destination shares is bookkeeping.ts. Tables and schemas come already quoted and qualified
 * (`qualifiedName`): DuckDB needs the catalog too, since a file named like its schema makes
 * `"aivis"."t"` ambiguous. Each takes the destination's type mapping where it matters.
 */
import type { SqlParam } from './bookkeeping.ts';
import { quoteIdentifier } from './sql-identifier.ts';
import type { ColumnSpec, ColumnType, TableSpec } from './table-spec.ts';

/** Logical column type -> the destination's SQL type. */
export type SqlTypeOf = (type: ColumnType) => string;

export const quotedList = (names: readonly string[]): string => names.map(quoteIdentifier).join(', ');

export function columnDefinition(column: ColumnSpec, typeOf: SqlTypeOf, nullable = column.nullable): string {
  return `${quoteIdentifier(column.name)} ${typeOf(column.type)}${nullable ? '' : ' NOT NULL'}`;
}

export function createSchemaSql(schema: string): string {
  return `CREATE SCHEMA IF NOT EXISTS ${schema}`;
}

export function createTableSql(target: string, table: TableSpec, typeOf: SqlTypeOf): string {
  const lines = [
    ...table.columns.map((c) => columnDefinition(c, typeOf)),
    `PRIMARY KEY (${quotedList(table.primaryKey)})`,
  ];
  return `CREATE TABLE IF NOT EXISTS ${target} (\n  ${lines.join(',\n  ')}\n)`;
}

/** A column the contract added later: nullable, since existing rows have no value for it. */
export function addColumnSql(target: string, column: ColumnSpec, typeOf: SqlTypeOf): string {
  return `ALTER TABLE ${target} ADD COLUMN IF NOT EXISTS ${columnDefinition(column, typeOf, true)}`;
}

/** Every row of `table`, each column through `read` (the destination's logical-form expression). */
export function selectSql(target: string, table: TableSpec, read: (column: ColumnSpec) => string, where = ''): string {
  return `SELECT ${table.columns.map(read).join(', ')} FROM ${target}${where ? ` WHERE ${where}` : ''}`;
}

/** Parameters: lock name, run id. Deletes the row only while it still names this run. */
export function deleteLockRowSql(target: string): string {
  return `DELETE FROM ${target} WHERE "name" = $1 AND "run_id" = $2`;
}

/** The `$n` placeholder of the `index`-th parameter (from 0), cast when it is a timestamp. */
export function dollarPlaceholder(index: number, param: SqlParam): string {
  return param.type === 'timestamp' ? `CAST($${index + 1} AS TIMESTAMPTZ)` : `$${index + 1}`;
}
