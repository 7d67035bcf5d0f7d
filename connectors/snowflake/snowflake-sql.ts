/**
 * The SQL the Snowflake destination sends, written in its dialect (snowflake-dialect.ts). Names
 * are written as `ident` says (unquoted when plain, so Snowflake folds them to upper case).
 * Values always travel as binds (`?`), never inside the SQL text; descriptions are the
 * dialect's literals.
 */
import { isQuotedName, storedName } from '../../schemas/snowflake-names.ts';
import { type BookkeepingSql, bookkeepingSql, paramValues } from '../../src/destination/bookkeeping.ts';
import { LEASE_EPOCH } from '../../src/destination/lease-lock.ts';
import type { Description } from '../../src/destination/descriptions.ts';
import type { ColumnSpec, TableSpec } from '../../src/destination/table-spec.ts';
import { type ViewDialect, type ViewSpec, viewDialect } from '../../src/destination/view-spec.ts';
import { updatableColumns } from '../../src/destination/upsert-columns.ts';
import type { SnowflakeLocation } from './snowflake-config.ts';
import type { SnowflakeClient } from './snowflake-client.ts';
import { ident, SNOWFLAKE_DIALECT, SQL_TYPES } from './snowflake-dialect.ts';
import { decodeRow, fromStagedText } from './snowflake-types.ts';

export { ident };

/**
 * The configured database or schema as SQL (docs/destinations/snowflake.md, "Names"): a name
 * written in double quotes is used exactly, case and all; any other as `ident` writes it, so
 * Snowflake resolves it upper-case.
 * @example locationIdent('"Analytics"') // '"Analytics"'; locationIdent('analytics') // 'analytics' (ANALYTICS)
 */
export function locationIdent(name: string): string {
  return isQuotedName(name) ? name : ident(name);
}

/** The name the catalog stores for a configured one (schemas/snowflake-names.ts). */
export { storedName };

export const schemaName = (at: SnowflakeLocation): string =>
  `${locationIdent(at.database)}.${locationIdent(at.schema)}`;

export const tableName = (at: SnowflakeLocation, table: string): string => `${schemaName(at)}.${ident(table)}`;

/** The session's temporary staging table of `table` (temporary tables cannot be qualified portably). */
export const stageName = (table: TableSpec): string => ident(`_aivis_stage_${table.name}`);

export function createSchemaSql(at: SnowflakeLocation): string {
  return `CREATE SCHEMA IF NOT EXISTS ${schemaName(at)}`;
}

/**
 * The table with its descriptions as comments in the one statement (Snowflake's CREATE TABLE
 * takes a column's `COMMENT '...'` and the table's `COMMENT = '...'`): a first sync sends one
 * statement per table, not one per column.
 */
export function createTableSql(at: SnowflakeLocation, table: TableSpec): string {
  const literal = SNOWFLAKE_DIALECT.literal;
  const columns = table.columns.map(
    (c) => `${ident(c.name)} ${SQL_TYPES[c.type]}${c.nullable ? '' : ' NOT NULL'} COMMENT ${literal(c.description)}`,
  );
  // Snowflake does not enforce primary keys; declared, it documents the upsert key for BI tools.
  return `CREATE TABLE IF NOT EXISTS ${tableName(at, table.name)} (${[...columns, `PRIMARY KEY (${table.primaryKey.map(ident).join(', ')})`].join(', ')}) COMMENT = ${literal(table.description)}`;
}

/**
 * Added columns are nullable: rows already there have no value for them. `IF NOT EXISTS`: runs
 * of other workspaces or shards may add the same column at once (docs/served-contract.md#schema-evolution).
 */
export function addColumnSql(at: SnowflakeLocation, table: TableSpec, column: ColumnSpec): string {
  return `ALTER TABLE ${tableName(at, table.name)} ADD COLUMN IF NOT EXISTS ${ident(column.name)} ${SQL_TYPES[column.type]}`;
}

/**
 * Creates the configured schema only when it is missing: a role that was given an existing
 * schema (USAGE + CREATE TABLE on it) need not hold CREATE SCHEMA on the database.
 */
export async function ensureSchema(client: SnowflakeClient, at: SnowflakeLocation): Promise<void> {
  const [found] = await client.execute(
    `SELECT COUNT(*) AS N FROM ${locationIdent(at.database)}.INFORMATION_SCHEMA.SCHEMATA WHERE CATALOG_NAME = ? AND SCHEMA_NAME = ?`,
    [storedName(at.database), storedName(at.schema)],
  );
  if (Number(found?.N ?? 0) === 0) await client.execute(createSchemaSql(at));
}

/** Binds: database, schema. Rows: TABLE_NAME, COLUMN_NAME, in column order. */
export function existingColumnsSql(at: SnowflakeLocation): string {
  return `SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM ${locationIdent(at.database)}.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_CATALOG = ? AND TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`;
}

/** Binds: database, schema. Rows: TABLE_NAME, TABLE_TYPE (`BASE TABLE`, `VIEW`), COMMENT. */
export function existingObjectsSql(at: SnowflakeLocation): string {
  return `SELECT TABLE_NAME, TABLE_TYPE, COMMENT FROM ${locationIdent(at.database)}.INFORMATION_SCHEMA.TABLES WHERE TABLE_CATALOG = ? AND TABLE_SCHEMA = ?`;
}

/** Binds: database, schema, database, schema. Rows: TABLE_NAME, COLUMN_NAME (NULL for the table's own), COMMENT. */
export function existingCommentsSql(at: SnowflakeLocation): string {
  const db = locationIdent(at.database);
  return [
    `SELECT TABLE_NAME, NULL AS COLUMN_NAME, COMMENT FROM ${db}.INFORMATION_SCHEMA.TABLES WHERE TABLE_CATALOG = ? AND TABLE_SCHEMA = ?`,
    `UNION ALL SELECT TABLE_NAME, COLUMN_NAME, COMMENT FROM ${db}.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_CATALOG = ? AND TABLE_SCHEMA = ?`,
  ].join(' ');
}

/**
 * A description as a comment: `COMMENT ON` for tables, views and table columns; a view's
 * column takes `ALTER VIEW ... ALTER COLUMN ... COMMENT` (Snowflake's form for view columns).
 */
export function commentSql(at: SnowflakeLocation, d: Description): string {
  const target = tableName(at, d.table);
  const text = SNOWFLAKE_DIALECT.literal(d.text);
  if (d.column === undefined) return `COMMENT ON ${d.view ? 'VIEW' : 'TABLE'} ${target} IS ${text}`;
  if (d.view) return `ALTER VIEW ${target} ALTER COLUMN ${ident(d.column)} COMMENT ${text}`;
  return `COMMENT ON COLUMN ${target}.${ident(d.column)} IS ${text}`;
}

/** How a view's query names tables and columns here. */
export function snowflakeViewDialect(at: SnowflakeLocation): ViewDialect {
  return viewDialect(SNOWFLAKE_DIALECT, (name) => tableName(at, name));
}

/** `COPY GRANTS`: a replaced view keeps the privileges granted on it. */
export function createViewSql(at: SnowflakeLocation, view: ViewSpec): string {
  return `CREATE OR REPLACE VIEW ${tableName(at, view.name)} COPY GRANTS AS ${view.query(snowflakeViewDialect(at))}`;
}

export function useSchemaSql(at: SnowflakeLocation): string {
  return `USE SCHEMA ${schemaName(at)}`;
}

/**
 * Every staged column is text; the MERGE converts (snowflake-types.ts says why). Replaced,
 * not kept, so a table that gained a column gets a staging table that has it.
 */
export function createStageSql(table: TableSpec): string {
  const columns = table.columns.map((c) => `${ident(c.name)} VARCHAR`);
  return `CREATE OR REPLACE TEMPORARY TABLE ${stageName(table)} (${columns.join(', ')})`;
}

/** One row per bind row: the table's columns in order. */
export function insertStageSql(table: TableSpec): string {
  const names = table.columns.map((c) => ident(c.name));
  return `INSERT INTO ${stageName(table)} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
}

/**
 * Upserts the staged rows. They are unique per key already (`flushParts` keeps the last row
 * of each key), as Snowflake fails a MERGE whose source has two rows for one target row.
 */
export function mergeSql(at: SnowflakeLocation, table: TableSpec): string {
  const key = table.primaryKey.map(ident);
  const source = `SELECT ${table.columns.map((c) => `${fromStagedText(c.type, ident(c.name))} AS ${ident(c.name)}`).join(', ')} FROM ${stageName(table)}`;
  const updates = updatableColumns(table).map((name) => `${ident(name)} = S.${ident(name)}`);
  const all = table.columns.map((c) => ident(c.name));
  return [
    `MERGE INTO ${tableName(at, table.name)} AS T USING (${source}) AS S ON ${key.map((k) => `T.${k} = S.${k}`).join(' AND ')}`,
    updates.length ? `WHEN MATCHED THEN UPDATE SET ${updates.join(', ')}` : '',
    `WHEN NOT MATCHED THEN INSERT (${all.join(', ')}) VALUES (${all.map((c) => `S.${c}`).join(', ')})`,
  ]
    .filter(Boolean)
    .join(' ');
}

export function selectAllSql(at: SnowflakeLocation, table: TableSpec, where = ''): string {
  return `SELECT ${table.columns.map((c) => ident(c.name)).join(', ')} FROM ${tableName(at, table.name)}${where ? ` WHERE ${where}` : ''}`;
}

/** Binds: database, schema, table, each as Snowflake stores it (upper case). */
export function tableExistsSql(at: SnowflakeLocation): string {
  return `SELECT COUNT(*) AS N FROM ${locationIdent(at.database)}.INFORMATION_SCHEMA.TABLES WHERE TABLE_CATALOG = ? AND TABLE_SCHEMA = ? AND TABLE_NAME = ?`;
}

const LEASE_ENDED = `'${LEASE_EPOCH}'::TIMESTAMP_TZ`;

/** Bind: the lock name. */
export const whereLockName = `${ident('name')} = ?`;

/** Bind: the lock name. Writes the row, its lease ended, unless it exists. */
export function createLockRowSql(at: SnowflakeLocation, lock: TableSpec): string {
  const name = ident('name');
  const columns = ['name', 'run_id', 'host', 'pid', 'started_at', 'expires_at'].map(ident).join(', ');
  return (
    `MERGE INTO ${tableName(at, lock.name)} AS T USING (SELECT ? AS ${name}) AS S ON T.${name} = S.${name} ` +
    `WHEN NOT MATCHED THEN INSERT (${columns}) VALUES (S.${name}, '', '', 0, '', ${LEASE_ENDED})`
  );
}

/**
 * Binds: run id, host, pid, started at, lease end, data session; lock name, now, run id.
 * Takes the row when its lease has ended or it already names this run.
 */
export function takeLeaseSql(at: SnowflakeLocation, lock: TableSpec): string {
  const [runId, expiresAt] = [ident('run_id'), ident('expires_at')];
  return (
    `UPDATE ${tableName(at, lock.name)} SET ${runId} = ?, ${ident('host')} = ?, ${ident('pid')} = ?::NUMBER(38,0), ${ident('started_at')} = ?, ${expiresAt} = ?::TIMESTAMP_TZ, ${ident('session_id')} = ? ` +
    `WHERE ${whereLockName} AND (${expiresAt} < ?::TIMESTAMP_TZ OR ${runId} = ?)`
  );
}

/** Binds: lease end, lock name, run id. */
export function renewLeaseSql(at: SnowflakeLocation, lock: TableSpec): string {
  return `UPDATE ${tableName(at, lock.name)} SET ${ident('expires_at')} = ?::TIMESTAMP_TZ WHERE ${whereLockName} AND ${ident('run_id')} = ?`;
}

/** Binds: lock name, run id. Ends the lease and forgets the data session, keeping the row. */
export function endLeaseSql(at: SnowflakeLocation, lock: TableSpec): string {
  return `UPDATE ${tableName(at, lock.name)} SET ${ident('expires_at')} = ${LEASE_ENDED}, ${ident('session_id')} = NULL WHERE ${whereLockName} AND ${ident('run_id')} = ?`;
}

/** The shared bookkeeping's statements on Snowflake: `?` binds in order, names as `ident` writes them. */
export function snowflakeBookkeeping(client: SnowflakeClient, at: SnowflakeLocation): BookkeepingSql {
  return bookkeepingSql(SNOWFLAKE_DIALECT, {
    table: (name) => tableName(at, name),
    async tableExists(name) {
      const [row] = await client.execute(tableExistsSql(at), [
        storedName(at.database),
        storedName(at.schema),
        name.toUpperCase(),
      ]);
      return Number(row?.N ?? 0) > 0;
    },
    selectAll: async (table) => (await client.execute(selectAllSql(at, table))).map((row) => decodeRow(table, row)),
    select: (sql, params) => client.execute(sql, paramValues(params)),
    async change(sql, params) {
      const [counts] = await client.execute(sql, paramValues(params));
      return Number(counts?.['number of rows deleted'] ?? counts?.['number of rows updated'] ?? 0);
    },
  });
}
