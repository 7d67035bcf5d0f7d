/** Creates the schema and tables that are missing and adds the columns a table lacks. */
import { columnsByTable, schemaChanges } from '../../src/destination/schema-diff.ts';
import { addColumnSql, createSchemaSql, createTableSql } from '../../src/destination/sql-statements.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import type { DuckdbSession } from './duckdb-client.ts';
import type { DuckdbOptions } from './duckdb-config.ts';
import { EXISTING_COLUMNS, schemaName, tableName } from './duckdb-sql.ts';
import { duckdbType } from './duckdb-types.ts';

/** The statements `ensureDuckdbTables` runs on an empty file. */
export function duckdbDdl(options: DuckdbOptions, tables: readonly TableSpec[]): string[] {
  return [
    createSchemaSql(schemaName(options)),
    ...tables.map((t) => createTableSql(tableName(options, t.name), t, duckdbType)),
  ];
}

/** Runs in the caller's transaction, if any. */
export async function ensureDuckdbTables(
  session: DuckdbSession,
  options: DuckdbOptions,
  tables: readonly TableSpec[],
): Promise<void> {
  await session.run(createSchemaSql(schemaName(options)));
  const existing = await session.all<{ table_name: string; column_name: string }>(EXISTING_COLUMNS, [
    options.catalog,
    options.schema,
  ]);
  const changes = schemaChanges(columnsByTable(existing), tables);
  for (const table of changes.create)
    await session.run(createTableSql(tableName(options, table.name), table, duckdbType));
  for (const { table, column } of changes.add)
    await session.run(addColumnSql(tableName(options, table.name), column, duckdbType));
}
