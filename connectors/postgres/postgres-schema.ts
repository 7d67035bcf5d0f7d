/** Creates the schema and tables that are missing and adds the columns a table lacks. */
import { columnsByTable, schemaChanges } from '../../src/destination/schema-diff.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import type { PostgresSession } from './postgres-client.ts';
import { addColumn, createSchema, createTable, EXISTING_COLUMNS, SCHEMA_EXISTS } from './postgres-sql.ts';

/** The statements `ensurePostgresTables` runs on an empty database. */
export function postgresDdl(schema: string, tables: readonly TableSpec[]): string[] {
  return [createSchema(schema), ...tables.map((t) => createTable(schema, t))];
}

/** Runs in the caller's transaction, if any. Reads the catalog first so a user without CREATE on the database can still use an existing schema. */
export async function ensurePostgresTables(session: PostgresSession, schema: string, tables: readonly TableSpec[]): Promise<void> {
  if ((await session.query(SCHEMA_EXISTS, [schema])).rowCount === 0) await session.query(createSchema(schema));
  const { rows } = await session.query<{ table_name: string; column_name: string }>(EXISTING_COLUMNS, [schema]);
  const changes = schemaChanges(columnsByTable(rows), tables);
  for (const table of changes.create) await session.query(createTable(schema, table));
  for (const { table, column } of changes.add) await session.query(addColumn(schema, table.name, column));
}
