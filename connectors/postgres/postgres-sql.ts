/**
 * The SQL only Postgres runs: catalog queries, COPY staging, the advisory lock, and how the
 * shared DDL and bookkeeping name and run their statements here. Shared DDL is in
 * src/destination/sql-statements.ts, the bookkeeping in src/destination/bookkeeping.ts.
 */
import { type BookkeepingSql, bookkeepingSql, paramValues } from '../../src/destination/bookkeeping.ts';
import { onConflictUpsert } from '../../src/destination/on-conflict-upsert.ts';
import type { StoredComment } from '../../src/destination/descriptions.ts';
import { type AnsiCatalog, ensureAnsiTables, ensureAnsiViews } from '../../src/destination/schema-diff.ts';
import { qualifiedName, quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import { type AnsiNames, columnDefinition, quotedList, selectSql } from '../../src/destination/sql-statements.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { type ExistingObject, type ViewSpec, viewDialect } from '../../src/destination/view-spec.ts';
import type { Logger } from '../../src/log/logger.ts';
import type { PostgresSession } from './postgres-client.ts';
import { isNotOwner } from './postgres-permission.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';
import { readExpression } from './postgres-types.ts';

/** Parameters: schema name. Rows: `table_name`, `column_name`, in column order. */
export const EXISTING_COLUMNS =
  'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position';

/** Parameter: schema name. Rows: `name`, `kind` (`table` or `view`), `comment`. */
export const EXISTING_OBJECTS = `SELECT c.relname AS name, CASE WHEN c.relkind IN ('v', 'm') THEN 'view' ELSE 'table' END AS kind,
  obj_description(c.oid, 'pg_class') AS comment
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`;

/** Parameter: schema name. Rows: `table_name`, `column_name` (NULL for the table's own), `comment`. */
export const EXISTING_COMMENTS = `SELECT c.relname AS table_name, NULL AS column_name, obj_description(c.oid, 'pg_class') AS comment
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v')
UNION ALL
SELECT c.relname, a.attname, col_description(c.oid, a.attnum)
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v') AND a.attnum > 0 AND NOT a.attisdropped`;

/** Parameter: schema name. */
export const SCHEMA_EXISTS = 'SELECT 1 FROM pg_namespace WHERE nspname = $1';

/** Parameter: `"schema"."table"`. */
export const TABLE_EXISTS = 'SELECT to_regclass($1) IS NOT NULL AS present';

export function stagingName(table: TableSpec): string {
  return `_aivis_stage_${table.name}`;
}

/** Constraint-free, so a bad row fails at the target with the target's own message. */
export function createStaging(table: TableSpec): string {
  const columns = table.columns.map((c) => columnDefinition(c, POSTGRES_DIALECT, true));
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
  const table = (name: string) => qualifiedName(schema, name);
  return {
    dialect: POSTGRES_DIALECT,
    schema: qualifiedName(schema),
    table,
    viewDialect: viewDialect(POSTGRES_DIALECT, table),
  };
}

/**
 * `ensureAnsiTables` in a transaction of its own that first waits for the schema's DDL lock
 * (released when it ends): runs of several workspaces on one schema start at once, and two
 * `CREATE TABLE IF NOT EXISTS` of one table racing fail on Postgres.
 */
export function ensurePostgresTables(
  session: PostgresSession,
  schema: string,
  tables: readonly TableSpec[],
  logger: Logger,
): Promise<void> {
  return underDdlLock(session, schema, logger, (catalog) => ensureAnsiTables(catalog, tables));
}

/** `ensureAnsiViews` the same way: its own transaction, after the schema's DDL lock. */
export function ensurePostgresViews(
  session: PostgresSession,
  schema: string,
  views: readonly ViewSpec[],
  logger: Logger,
): Promise<void> {
  return underDdlLock(session, schema, logger, (catalog) => ensureAnsiViews(catalog, views));
}

function underDdlLock(
  session: PostgresSession,
  schema: string,
  logger: Logger,
  work: (catalog: AnsiCatalog) => Promise<void>,
): Promise<void> {
  return session.transaction(async () => {
    await session.query(DDL_LOCK, [`aivis-ddl:${schema}`]);
    await work(postgresCatalog(session, schema, logger));
  });
}

/**
 * The catalog `ensureAnsiTables` reads and changes, on `session`, inside a transaction. A
 * COMMENT on an object another role owns is a warning, not a failure: descriptions are not
 * data, and a table someone else made must not stop the rows loading. The savepoint keeps the
 * transaction usable after Postgres refuses it.
 */
export function postgresCatalog(session: PostgresSession, schema: string, logger: Logger): AnsiCatalog {
  return {
    ...postgresNames(schema),
    run: (sql) => session.query(sql),
    async comment(sql) {
      await session.query('SAVEPOINT aivis_comment');
      try {
        await session.query(sql);
      } catch (error) {
        if (!isNotOwner(error)) throw error;
        await session.query('ROLLBACK TO SAVEPOINT aivis_comment');
        logger.warn('description not set', { error: (error as Error).message });
      }
      await session.query('RELEASE SAVEPOINT aivis_comment');
    },
    schemaExists: async () => (await session.query(SCHEMA_EXISTS, [schema])).rowCount > 0,
    existingColumns: async () =>
      (await session.query<{ table_name: string; column_name: string }>(EXISTING_COLUMNS, [schema])).rows,
    existingObjects: async () =>
      new Map(
        (await session.query<{ name: string } & ExistingObject>(EXISTING_OBJECTS, [schema])).rows.map(
          ({ name, kind, comment }) => [name, { kind, comment }],
        ),
      ),
    existingComments: async () => (await session.query<StoredComment>(EXISTING_COMMENTS, [schema])).rows,
  };
}

/** The shared bookkeeping's statements on Postgres: `$n` parameters, names quoted. */
export function postgresBookkeeping(session: PostgresSession, schema: string): BookkeepingSql {
  return bookkeepingSql(POSTGRES_DIALECT, {
    table: (name) => qualifiedName(schema, name),
    async tableExists(name) {
      const { rows } = await session.query<{ present: boolean }>(TABLE_EXISTS, [qualifiedName(schema, name)]);
      return rows[0]?.present === true;
    },
    selectAll: async (table) =>
      (await session.query(selectSql(qualifiedName(schema, table.name), table, readExpression))).rows,
    select: async (sql, params) => (await session.query(sql, paramValues(params))).rows,
    change: async (sql, params) => (await session.query(sql, paramValues(params))).rowCount,
  });
}
