/**
 * Every statement the BigQuery connector sends, as text. Values always travel as named query
 * parameters (`@name`), never spliced into the SQL; only identifiers from our own table
 * specs are, quoted with backticks.
 */
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { updatableColumns } from '../../src/destination/upsert-columns.ts';
import { BIGQUERY_TYPES } from './bigquery-types.ts';

/** The staging column that orders rows of one flush: the highest ordinal of a key wins. */
export const ORDINAL_COLUMN = '_aivis_ord';

/** A table's fully qualified name: `` `project.dataset.table` ``. */
export interface TableRef {
  readonly project: string;
  readonly dataset: string;
  readonly table: string;
}

export function quoteTable(ref: TableRef): string {
  return `\`${ref.project}.${ref.dataset}.${ref.table}\``;
}

export function quoteName(name: string): string {
  return `\`${name}\``;
}

/**
 * One MERGE per table per flush. The source keeps only the last staged row of each primary
 * key (BigQuery rejects a MERGE that matches one target row with several source rows, and a
 * flush may carry a key twice: boundary rows of an inclusive `updated_since`, replayed pages).
 * `insertOnly` columns are written on insert and left alone on update.
 */
export function mergeSql(target: TableRef, staging: TableRef, table: TableSpec): string {
  const names = table.columns.map((c) => c.name);
  const value = (name: string) => {
    const col = table.columns.find((c) => c.name === name);
    return col?.type === 'json' ? `PARSE_JSON(S.${quoteName(name)}, wide_number_mode=>'round')` : `S.${quoteName(name)}`;
  };
  const updates = updatableColumns(table).map((n) => `${quoteName(n)} = ${value(n)}`);
  const partition = table.primaryKey.map(quoteName).join(', ');
  return [
    `MERGE INTO ${quoteTable(target)} AS T`,
    `USING (SELECT * EXCEPT (${ORDINAL_COLUMN}) FROM ${quoteTable(staging)} WHERE TRUE`,
    `  QUALIFY ROW_NUMBER() OVER (PARTITION BY ${partition} ORDER BY ${ORDINAL_COLUMN} DESC) = 1) AS S`,
    `ON ${table.primaryKey.map((k) => `T.${quoteName(k)} = S.${quoteName(k)}`).join(' AND ')}`,
    ...(updates.length ? [`WHEN MATCHED THEN UPDATE SET ${updates.join(', ')}`] : []),
    `WHEN NOT MATCHED THEN INSERT (${names.map(quoteName).join(', ')}) VALUES (${names.map(value).join(', ')})`,
  ].join('\n');
}

/** DDL equivalent of what `ensureTables` creates through the tables API (for `aivis streams`). */
export function createTableDdl(ref: TableRef, table: TableSpec): string {
  const columns = table.columns.map((c) => `  ${quoteName(c.name)} ${BIGQUERY_TYPES[c.type]}${c.nullable ? '' : ' NOT NULL'}`);
  return [
    `CREATE TABLE IF NOT EXISTS ${quoteTable(ref)} (`,
    columns.join(',\n'),
    ')',
    ...(table.partitionBy ? [`PARTITION BY DATE(${quoteName(table.partitionBy)})`] : []),
    ...(table.clusterBy?.length ? [`CLUSTER BY ${table.clusterBy.map(quoteName).join(', ')}`] : []),
  ].join('\n') + ';';
}

export function createDatasetDdl(project: string, dataset: string, location: string): string {
  return `CREATE SCHEMA IF NOT EXISTS \`${project}.${dataset}\` OPTIONS (location = '${location.replace(/'/g, '')}');`;
}

export function selectStateSql(state: TableRef): string {
  return `SELECT stream, scope, state, updated_at FROM ${quoteTable(state)} ORDER BY stream, scope`;
}

/** `DELETE` needs a WHERE clause in BigQuery; `WHERE TRUE` deletes every entry. */
export function deleteStateSql(state: TableRef, match: { stream?: string; scope?: string }): string {
  const conditions = ['TRUE'];
  if (match.stream !== undefined) conditions.push('stream = @stream');
  if (match.scope !== undefined) conditions.push('scope = @scope');
  return `DELETE FROM ${quoteTable(state)} WHERE ${conditions.join(' AND ')}`;
}

export function activeWebsitesSql(websites: TableRef): string {
  return `SELECT id FROM ${quoteTable(websites)} WHERE _removed_at IS NULL ORDER BY id`;
}

export function markRemovedSql(websites: TableRef): string {
  return `UPDATE ${quoteTable(websites)} SET _removed_at = @removed_at WHERE _removed_at IS NULL AND id IN UNNEST(@ids)`;
}

/**
 * Takes the lease when nobody holds it, when it expired, or when this run already holds it.
 * One DML statement, so two runs racing for it cannot both win (BigQuery serializes DML on
 * one table; the loser's statement fails or affects no row).
 */
export function acquireLockSql(lock: TableRef): string {
  return [
    `MERGE INTO ${quoteTable(lock)} AS T`,
    'USING (SELECT @name AS name) AS S',
    'ON T.name = S.name',
    'WHEN MATCHED AND (T.expires_at < @now OR T.run_id = @run_id) THEN UPDATE SET',
    '  run_id = @run_id, host = @host, pid = @pid, started_at = @started_at, expires_at = @expires_at',
    'WHEN NOT MATCHED THEN INSERT (name, run_id, host, pid, started_at, expires_at)',
    '  VALUES (@name, @run_id, @host, @pid, @started_at, @expires_at)',
  ].join('\n');
}

export function selectLockSql(lock: TableRef): string {
  return `SELECT run_id, host, pid, started_at, expires_at FROM ${quoteTable(lock)} WHERE name = @name`;
}

export function renewLockSql(lock: TableRef): string {
  return `UPDATE ${quoteTable(lock)} SET expires_at = @expires_at WHERE name = @name AND run_id = @run_id`;
}

export function releaseLockSql(lock: TableRef): string {
  return `DELETE FROM ${quoteTable(lock)} WHERE name = @name AND run_id = @run_id`;
}
