/**
 * The SQL only DuckDB runs: catalog queries, staging, and how the shared DDL and bookkeeping
 * name and run their statements here. Shared DDL is in src/destination/sql-statements.ts, the
 * bookkeeping in src/destination/bookkeeping.ts.
 */
import { serialByKey } from '../../src/destination/serial-by-key.ts';
import { existsSync } from 'node:fs';
import { type BookkeepingSql, bookkeepingSql, paramValues } from '../../src/destination/bookkeeping.ts';
import { onConflictUpsert } from '../../src/destination/on-conflict-upsert.ts';
import type { StoredComment } from '../../src/destination/descriptions.ts';
import type { AnsiCatalog } from '../../src/destination/schema-diff.ts';
import { qualifiedName, quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import { type AnsiNames, selectSql } from '../../src/destination/sql-statements.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { type ExistingObject, viewDialect } from '../../src/destination/view-spec.ts';
import type { DuckdbSession } from './duckdb-client.ts';
import type { DuckdbOptions } from './duckdb-config.ts';
import { DUCKDB_DIALECT } from './duckdb-dialect.ts';
import { decodeCell, fromStaging, readExpression, stagingType } from './duckdb-types.ts';

/** `"catalog"."schema"`. */
export function schemaName({ catalog, schema }: DuckdbOptions): string {
  return qualifiedName(catalog, schema);
}

/** `"catalog"."schema"."table"`. */
export function tableName({ catalog, schema }: DuckdbOptions, table: string): string {
  return qualifiedName(catalog, schema, table);
}

/** Parameters: catalog, schema. */
export const SCHEMA_EXISTS =
  'SELECT count(*) AS n FROM information_schema.schemata WHERE catalog_name = $1 AND schema_name = $2';

/** Parameters: catalog, schema. Rows: `table_name`, `column_name`, in column order. */
export const EXISTING_COLUMNS =
  'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_catalog = $1 AND table_schema = $2 ORDER BY table_name, ordinal_position';

/** Parameters: catalog, schema. Rows: `name`, `kind` (`table` or `view`), `comment`. */
export const EXISTING_OBJECTS = `SELECT table_name AS name, CASE WHEN table_type = 'VIEW' THEN 'view' ELSE 'table' END AS kind,
  TABLE_COMMENT AS comment
FROM information_schema.tables WHERE table_catalog = $1 AND table_schema = $2`;

/** Parameters: catalog, schema. Rows: `table_name`, `column_name` (NULL for the table's own), `comment`. */
export const EXISTING_COMMENTS = `SELECT table_name, NULL AS column_name, TABLE_COMMENT AS comment
FROM information_schema.tables WHERE table_catalog = $1 AND table_schema = $2
UNION ALL
SELECT table_name, column_name, COLUMN_COMMENT FROM information_schema.columns WHERE table_catalog = $1 AND table_schema = $2`;

export function stagingName(table: TableSpec): string {
  return `_aivis_stage_${table.name}`;
}

/** A fresh temp table per flush part; constraint-free, so a bad row fails at the target with its message. */
export function createStaging(table: TableSpec): string {
  const columns = table.columns.map((c) => `${quoteIdentifier(c.name)} ${stagingType(c.type)}`);
  return `CREATE OR REPLACE TEMP TABLE ${quoteIdentifier(stagingName(table))} (${columns.join(', ')})`;
}

export function dropStaging(table: TableSpec): string {
  return `DROP TABLE IF EXISTS temp.main.${quoteIdentifier(stagingName(table))}`;
}

export function upsertFromStaging(target: string, table: TableSpec): string {
  return onConflictUpsert(table, {
    target,
    staging: `temp.main.${quoteIdentifier(stagingName(table))}`,
    read: fromStaging,
  });
}

/** Parameters: catalog, schema, table. */
export const TABLE_EXISTS =
  'SELECT count(*) AS n FROM information_schema.tables WHERE table_catalog = $1 AND table_schema = $2 AND table_name = $3';

/**
 * How the shared DDL names the schema's tables on DuckDB: with their catalog. A view's query
 * names them unqualified: DuckDB binds a view's names in the view's own catalog and schema, so
 * the view survives the file being renamed or attached under another name.
 */
export function duckdbNames(options: DuckdbOptions): AnsiNames {
  return {
    dialect: DUCKDB_DIALECT,
    schema: schemaName(options),
    table: (name) => tableName(options, name),
    viewDialect: viewDialect(DUCKDB_DIALECT, quoteIdentifier),
  };
}

/** The catalog `ensureAnsiTables` reads and changes, on `session`. */
export function duckdbCatalog(session: DuckdbSession, options: DuckdbOptions): AnsiCatalog {
  const where = [options.catalog, options.schema];
  return {
    ...duckdbNames(options),
    run: (sql) => session.run(sql),
    schemaExists: async () => Number((await session.all<{ n: bigint }>(SCHEMA_EXISTS, where))[0]?.n ?? 0) > 0,
    existingColumns: () => session.all<{ table_name: string; column_name: string }>(EXISTING_COLUMNS, where),
    existingObjects: async () =>
      new Map(
        (await session.all<{ name: string } & ExistingObject>(EXISTING_OBJECTS, where)).map(
          ({ name, kind, comment }) => [name, { kind, comment }],
        ),
      ),
    existingComments: () => session.all<StoredComment>(EXISTING_COMMENTS, where),
  };
}

/** The shared bookkeeping's statements on DuckDB: `$n` parameters, names quoted with their catalog. */
export function duckdbBookkeeping(session: DuckdbSession, options: DuckdbOptions): BookkeepingSql {
  return bookkeepingSql(DUCKDB_DIALECT, {
    table: (name) => tableName(options, name),
    async tableExists(name) {
      // A file not made yet holds no table; asking would make it (`aivis streams` leaves none behind).
      if (options.path !== ':memory:' && !existsSync(options.path)) return false;
      const [row] = await session.all<{ n: bigint }>(TABLE_EXISTS, [options.catalog, options.schema, name]);
      return Number(row?.n ?? 0) > 0;
    },
    async selectAll(table) {
      const rows = await session.all(selectSql(tableName(options, table.name), table, readExpression));
      return rows.map((row) => Object.fromEntries(table.columns.map((c) => [c.name, decodeCell(c.type, row[c.name])])));
    },
    select: (sql, params) => session.all(sql, paramValues(params)),
    change: (sql, params) => session.run(sql, paramValues(params)),
  });
}

/**
 * Runs `work` (a transaction that may change the catalog) after every earlier one on `file` in
 * this process: runs of several workspaces share the file, each on its own connection, and
 * DuckDB fails two transactions creating one table at once ("Catalog write-write conflict").
 */
export const oneDdlAtATime: <T>(file: string, work: () => Promise<T>) => Promise<T> = serialByKey();
