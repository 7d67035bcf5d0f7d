/**
 * The SQL only Postgres runs: catalog queries, COPY staging, the advisory lock, and how the
 * shared DDL and bookkeeping name and run their statements here. Shared DDL is in
 * src/destination/sql-statements.ts, the bookkeeping in src/destination/bookkeeping.ts.
 */
import type { BookkeepingSql } from '../../src/destination/bookkeeping.ts';
import { onConflictUpsert } from '../../src/destination/on-conflict-upsert.ts';
import { type AnsiCatalog, ensureAnsiTables } from '../../src/destination/schema-diff.ts';
import { qualifiedName, quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import {
  type AnsiNames,
  columnDefinition,
  dollarBookkeeping,
  quotedList,
  selectSql,
} from '../../src/destination/sql-statements.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import type { PostgresSession } from './postgres-client.ts';
import { postgresType, readExpression } from './postgres-types.ts';

/** Parameters: schema name. Rows: `table_name`, `column_name`. */
export const EXISTING_COLUMNS =
  'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1';

/** Parameter: schema name. */
export const SCHEMA_EXISTS = 'SELECT 1 FROM pg_namespace WHERE nspname = $1';

/** Parameter: `"schema"."table"`. */
export const TABLE_EXISTS = 'SELECT to_regclass($1) IS NOT NULL AS present';

export function stagingName(table: TableSpec): string {
  return `_aivis_stage_${table.name}`;
}

/** Constraint-free, so a bad row fails at the target with the target's own message. */
export function createStaging(table: TableSpec): string {
  const columns = table.columns.map((c) => columnDefinition(c, postgresType, true));
  return `CREATE TEMP TABLE ${quoteIdentifier(stagingName(table))} (${columns.join(', ')}) ON COMMIT DROP`;
}

export function copyIntoStaging(table: TableSpec): string {
  return `COPY ${quoteIdentifier(stagingName(table))} (${quotedList(table.columns.map((c) => c.name))}) FROM STDIN WITH (FORMAT csv)`;
}

export function upsertFromStaging(schema: string, table: TableSpec): string {
  return onConflictUpsert(table, {
    target: qualifiedName(schema, table.name),
    staging: quoteIdentifier(stagingName(table)),
  });
}

/** Parameter: lock key text. One advisory lock per database and schema. */
export const TRY_ADVISORY_LOCK = 'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked';
export const ADVISORY_UNLOCK = 'SELECT pg_advisory_unlock(hashtextextended($1, 0))';
/** Waits for a lock held until the end of the current transaction. */
export const DDL_LOCK = 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))';

/** How the shared DDL names the schema's tables on Postgres. */
export function postgresNames(schema: string): AnsiNames {
  return { schema: qualifiedName(schema), table: (name) => qualifiedName(schema, name), typeOf: postgresType };
}

/** The catalog `ensureAnsiTables` reads and changes, on `session`. */
/**
 * `ensureAnsiTables` in a transaction of its own that first waits for the schema's DDL lock
 * (released when it ends): runs of several workspaces on one schema start at once, and two
 * `CREATE TABLE IF NOT EXISTS` of one table racing fail on Postgres.
 */
export function ensurePostgresTables(
  session: PostgresSession,
  schema: string,
  tables: readonly TableSpec[],
): Promise<void> {
  return session.transaction(async () => {
    await session.query(DDL_LOCK, [`aivis-ddl:${schema}`]);
    await ensureAnsiTables(postgresCatalog(session, schema), tables);
  });
}

export function postgresCatalog(session: PostgresSession, schema: string): AnsiCatalog {
  return {
    ...postgresNames(schema),
    run: (sql) => session.query(sql),
    schemaExists: async () => (await session.query(SCHEMA_EXISTS, [schema])).rowCount > 0,
    existingColumns: async () =>
      (await session.query<{ table_name: string; column_name: string }>(EXISTING_COLUMNS, [schema])).rows,
  };
}

/** The shared bookkeeping's statements on Postgres: `$n` parameters, names quoted. */
export function postgresBookkeeping(session: PostgresSession, schema: string): BookkeepingSql {
  return dollarBookkeeping({
    table: (name) => qualifiedName(schema, name),
    async tableExists(name) {
      const { rows } = await session.query<{ present: boolean }>(TABLE_EXISTS, [qualifiedName(schema, name)]);
      return rows[0]?.present === true;
    },
    selectAll: async (table) =>
      (await session.query(selectSql(qualifiedName(schema, table.name), table, readExpression))).rows,
    select: async (sql, values) => (await session.query(sql, values)).rows,
    change: async (sql, values) => (await session.query(sql, values)).rowCount,
  });
}
