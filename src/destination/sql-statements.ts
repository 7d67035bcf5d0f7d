/**
 * Statements that read the same in every SQL destination with ANSI quoting and `$n`
 * parameters (Postgres, DuckDB), and the pieces of those destinations written over them: the
 * DDL, `check`'s probe table, the bookkeeping's statements (the queries themselves, shared by
 * every destination, are in queries/). Tables and schemas come already quoted and qualified
 * (`qualifiedName`): DuckDB needs the catalog too, since a file named like its schema makes
 * `"aivis"."t"` ambiguous. Each takes the destination's type mapping where it matters.
 */
import { randomBytes } from 'node:crypto';
import type { SqlParam } from './bookkeeping.ts';
import { type Description, descriptionsOf } from './descriptions.ts';
import type { SqlDialect } from './sql-dialect.ts';
import { quoteIdentifier } from './sql-identifier.ts';
import type { ColumnSpec, TableSpec } from './table-spec.ts';
import { updatableColumns } from './upsert-columns.ts';
import type { ViewDialect, ViewSpec } from './view-spec.ts';

export const quotedList = (names: readonly string[]): string => names.map(quoteIdentifier).join(', ');

export function columnDefinition(column: ColumnSpec, dialect: SqlDialect, nullable = column.nullable): string {
  return `${dialect.identifier(column.name)} ${dialect.typeName(column.type)}${nullable ? '' : ' NOT NULL'}`;
}

export function createSchemaSql(schema: string): string {
  return `CREATE SCHEMA IF NOT EXISTS ${schema}`;
}

export function createTableSql(target: string, table: TableSpec, dialect: SqlDialect): string {
  const lines = [
    ...table.columns.map((c) => columnDefinition(c, dialect)),
    `PRIMARY KEY (${quotedList(table.primaryKey)})`,
  ];
  return `CREATE TABLE IF NOT EXISTS ${target} (\n  ${lines.join(',\n  ')}\n)`;
}

/** A column the contract added later: nullable, since existing rows have no value for it. */
export function addColumnSql(target: string, column: ColumnSpec, dialect: SqlDialect): string {
  return `ALTER TABLE ${target} ADD COLUMN IF NOT EXISTS ${columnDefinition(column, dialect, true)}`;
}

/** `COMMENT ON TABLE|VIEW|COLUMN ... IS '...'` (Postgres, DuckDB); `target` is the quoted table or view. */
export function commentSql(target: string, description: Description, dialect: SqlDialect): string {
  const on =
    description.column === undefined
      ? `${description.view ? 'VIEW' : 'TABLE'} ${target}`
      : `COLUMN ${target}.${dialect.identifier(description.column)}`;
  return `COMMENT ON ${on} IS ${dialect.literal(description.text)}`;
}

export function createViewSql(target: string, view: ViewSpec, dialect: ViewDialect): string {
  return `CREATE OR REPLACE VIEW ${target} AS\n${view.query(dialect)}`;
}

/** Every row of `table`, each column through `read` (the destination's logical-form expression). */
export function selectSql(target: string, table: TableSpec, read: (column: ColumnSpec) => string, where = ''): string {
  return `SELECT ${table.columns.map(read).join(', ')} FROM ${target}${where ? ` WHERE ${where}` : ''}`;
}

/** Parameters: the lock row's columns in `table` order. Writes this run into the lock row. */
export function upsertLockRowSql(target: string, table: TableSpec): string {
  const columns = table.columns.map((c) => c.name);
  const placeholders = columns.map((_, i) => `$${i + 1}`).join(', ');
  const updates = updatableColumns(table).map((c) => `${quoteIdentifier(c)} = EXCLUDED.${quoteIdentifier(c)}`);
  return `INSERT INTO ${target} (${quotedList(columns)}) VALUES (${placeholders}) ON CONFLICT (${quotedList(table.primaryKey)}) DO UPDATE SET ${updates.join(', ')}`;
}

/** Parameters: lock name, run id. Deletes the row only while it still names this run. */
export function deleteLockRowSql(target: string): string {
  return `DELETE FROM ${target} WHERE "name" = $1 AND "run_id" = $2`;
}

/** The `$n` placeholder of the `index`-th parameter (from 0), cast when it is a timestamp. */
export function dollarPlaceholder(index: number, param: SqlParam): string {
  return param.type === 'timestamp' ? `CAST($${index + 1} AS TIMESTAMPTZ)` : `$${index + 1}`;
}

/** How an ANSI destination writes its statements (its dialect) and names its schema and tables. */
export interface AnsiNames {
  readonly dialect: SqlDialect;
  /** The schema, quoted and qualified. */
  readonly schema: string;
  /** A table of the schema, quoted and qualified. */
  table(name: string): string;
  /** The dialect, naming the schema's tables as a view's query must (DuckDB: unqualified, bound in the view's own schema). */
  readonly viewDialect: ViewDialect;
}

/** The statements creating the schema and `tables` on an empty database, with their comments (`describeDdl`). */
export function ansiDdl(names: AnsiNames, tables: readonly TableSpec[]): string[] {
  return [
    createSchemaSql(names.schema),
    ...tables.flatMap((t) => [
      createTableSql(names.table(t.name), t, names.dialect),
      ...descriptionsOf([t], false).map((d) => commentSql(names.table(t.name), d, names.dialect)),
    ]),
  ];
}

/** The statements creating `views` with their comments (`aivis streams`). */
export function ansiViewDdl(names: AnsiNames, views: readonly ViewSpec[]): string[] {
  return views.flatMap((v) => [
    createViewSql(names.table(v.name), v, names.viewDialect),
    ...descriptionsOf([v], true).map((d) => commentSql(names.table(v.name), d, names.dialect)),
  ]);
}

/** A table name no run uses twice, for `check`'s probe. */
export function probeTableName(): string {
  return `_aivis_check_${randomBytes(4).toString('hex')}`;
}

/** `check`'s proof that the identity can create, write and drop a table in the schema. */
export async function writeProbeTable(run: (sql: string) => Promise<unknown>, target: string): Promise<void> {
  await run(`CREATE TABLE ${target} ("id" BIGINT PRIMARY KEY)`);
  await run(`INSERT INTO ${target} VALUES (1)`);
  await run(`DROP TABLE ${target}`);
}
