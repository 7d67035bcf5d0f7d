/**
 * The SQL the Snowflake destination sends. Names are written as `ident` says (unquoted when
 * plain, so Snowflake folds them to upper case). Values always travel as binds (`?`), never
 * inside the SQL text.
 */
import type { BookkeepingSql } from '../../src/destination/bookkeeping.ts';
import type { ColumnSpec, TableSpec } from '../../src/destination/table-spec.ts';
import { updatableColumns } from '../../src/destination/upsert-columns.ts';
import type { SnowflakeLocation } from './snowflake-config.ts';
import type { SnowflakeClient } from './snowflake-client.ts';
import { ident } from './snowflake-identifier.ts';
import { decodeRow } from './snowflake-rows.ts';
import { fromStagedText, SQL_TYPES } from './snowflake-types.ts';

export const schemaName = (at: SnowflakeLocation): string => `${ident(at.database)}.${ident(at.schema)}`;

export const tableName = (at: SnowflakeLocation, table: string): string => `${schemaName(at)}.${ident(table)}`;

/** The session's temporary staging table of `table` (temporary tables cannot be qualified portably). */
export const stageName = (table: TableSpec): string => ident(`_aivis_stage_${table.name}`);

/** Staged row order: the last staged row of a key wins the MERGE. */

export function createSchemaSql(at: SnowflakeLocation): string {
  return `CREATE SCHEMA IF NOT EXISTS ${schemaName(at)}`;
}

export function createTableSql(at: SnowflakeLocation, table: TableSpec): string {
  const columns = table.columns.map((c) => `${ident(c.name)} ${SQL_TYPES[c.type]}${c.nullable ? '' : ' NOT NULL'}`);
  // Snowflake does not enforce primary keys; declared, it documents the upsert key for BI tools.
  return `CREATE TABLE IF NOT EXISTS ${tableName(at, table.name)} (${[...columns, `PRIMARY KEY (${table.primaryKey.map(ident).join(', ')})`].join(', ')})`;
}

/** Added columns are nullable: rows already there have no value for them. */
export function addColumnSql(at: SnowflakeLocation, table: TableSpec, column: ColumnSpec): string {
  return `ALTER TABLE ${tableName(at, table.name)} ADD COLUMN ${ident(column.name)} ${SQL_TYPES[column.type]}`;
}

/** Binds: database, schema. Rows: TABLE_NAME, COLUMN_NAME. */
export function existingColumnsSql(at: SnowflakeLocation): string {
  return `SELECT TABLE_NAME, COLUMN_NAME FROM ${ident(at.database)}.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_CATALOG = ? AND TABLE_SCHEMA = ?`;
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

export function clearStageSql(table: TableSpec): string {
  return `DELETE FROM ${stageName(table)}`;
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
  return `SELECT COUNT(*) AS N FROM ${ident(at.database)}.INFORMATION_SCHEMA.TABLES WHERE TABLE_CATALOG = ? AND TABLE_SCHEMA = ? AND TABLE_NAME = ?`;
}

/** The shared bookkeeping's statements on Snowflake: `?` binds in order, names as `ident` writes them. */
export function snowflakeBookkeeping(client: SnowflakeClient, at: SnowflakeLocation): BookkeepingSql {
  return {
    table: (name) => tableName(at, name),
    column: ident,
    placeholder: (_index, param) => (param.type === 'timestamp' ? '?::TIMESTAMP_TZ' : '?'),
    async tableExists(name) {
      const [row] = await client.execute(
        tableExistsSql(at),
        [at.database, at.schema, name].map((n) => n.toUpperCase()),
      );
      return Number(row?.N ?? 0) > 0;
    },
    selectAll: async (table) => (await client.execute(selectAllSql(at, table))).map((row) => decodeRow(table, row)),
    select: (sql, params) =>
      client.execute(
        sql,
        params.map((p) => p.value),
      ),
    async change(sql, params) {
      const [counts] = await client.execute(
        sql,
        params.map((p) => p.value),
      );
      return Number(counts?.['number of rows deleted'] ?? counts?.['number of rows updated'] ?? 0);
    },
  };
}
