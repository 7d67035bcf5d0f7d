/** Creates the schema and tables that are missing and adds the columns a table lacks. */
import { columnsByTable, schemaChanges } from '../../src/destination/schema-diff.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import type { PostgresSession } from './postgres-client.ts';
import { qualifiedName } from '../../src/destination/sql-identifier.ts';
import { addColumnSql, createSchemaSql, createTableSql } from '../../src/destination/sql-statements.ts';
import { EXISTING_COLUMNS, SCHEMA_EXISTS } from './postgres-sql.ts';
import { postgresType } from './postgres-types.ts';

/** The statements `ensurePostgresTables` runs on an empty database. */
export function postgresDdl(schema: string, tables: readonly TableSpec[]): string[] {
  return [
    createSchemaSql(qualifiedName(schema)),
    ...tables.map((t) => createTableSql(qualifiedName(schema, t.name), t, postgresType)),
  ];
}

/** Runs in the caller's transaction, if any. Reads the catalog first so a user without CREATE on the database can still use an existing schema. */
export async function ensurePostgresTables(
  session: PostgresSession,
  schema: string,
  tables: readonly TableSpec[],
): Promise<void> {
  if ((await session.query(SCHEMA_EXISTS, [schema])).rowCount === 0)
    await session.query(createSchemaSql(qualifiedName(schema)));
  const { rows } = await session.query<{ table_name: string; column_name: string }>(EXISTING_COLUMNS, [schema]);
  const changes = schemaChanges(columnsByTable(rows), tables);
  for (const table of changes.create)
    await session.query(createTableSql(qualifiedName(schema, table.name), table, postgresType));
  for (const { table, column } of changes.add)
    await session.query(addColumnSql(qualifiedName(schema, table.name), column, postgresType));
}
