/**
 * Every statement the BigQuery connector sends, as text, written in its dialect
 * (bigquery-dialect.ts). Values always travel as named query parameters (`@name`), never
 * spliced into the SQL; names are quoted with backticks, descriptions of `aivis streams`' DDL
 * written as the dialect's literals.
 */
import { type BookkeepingSql, bookkeepingSql, type SqlParam } from '../../src/destination/bookkeeping.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import type { ViewSpec } from '../../src/destination/view-spec.ts';
import { updatableColumns } from '../../src/destination/upsert-columns.ts';
import type { PartitionRange } from './bigquery-partition-range.ts';
import type { BigqueryClient, QueryParam } from './bigquery-client.ts';
import { BIGQUERY_DIALECT } from './bigquery-dialect.ts';
import { BIGQUERY_TYPES } from './bigquery-types.ts';

/** A table's fully qualified name: `` `project.dataset.table` ``. */
export interface TableRef {
  readonly project: string;
  readonly dataset: string;
  readonly table: string;
}

export function quoteTable(ref: TableRef): string {
  return BIGQUERY_DIALECT.qualified([ref.project, ref.dataset, ref.table]);
}

export const quoteName = BIGQUERY_DIALECT.identifier;

/**
 * One MERGE per table per flush. The source keeps only the last staged row of each primary
 * key (BigQuery rejects a MERGE that matches one target row with several source rows, and a
 * flush may carry a key twice: boundary rows of an inclusive `updated_since`, replayed pages).
 * `insertOnly` columns are written on insert and left alone on update. With `range` (a table
 * partitioned by day), the target is matched only in those partitions: the MERGE reads, and
 * BigQuery bills, those partitions instead of the whole table; `misplacedKeysSql` first makes
 * sure no staged key lives outside them.
 */
export function mergeSql(target: TableRef, staging: TableRef, table: TableSpec, range?: PartitionRange): string {
  const names = table.columns.map((c) => c.name);
  const value = (name: string) => {
    const col = table.columns.find((c) => c.name === name);
    return col?.type === 'json'
      ? `PARSE_JSON(S.${quoteName(name)}, wide_number_mode=>'round')`
      : `S.${quoteName(name)}`;
  };
  const updates = updatableColumns(table).map((n) => `${quoteName(n)} = ${value(n)}`);
  const within = range && table.partitionBy ? [`AND ${insideRange('T', table.partitionBy, range)}`] : [];
  return [
    `MERGE INTO ${quoteTable(target)} AS T`,
    // Staged rows are unique per key (`flushParts` keeps the last of each): BigQuery refuses a
    // MERGE that matches one target row with several source rows.
    `USING ${quoteTable(staging)} AS S`,
    `ON ${keysMatch(table)}`,
    ...within,
    ...(updates.length ? [`WHEN MATCHED THEN UPDATE SET ${updates.join(', ')}`] : []),
    `WHEN NOT MATCHED THEN INSERT (${names.map(quoteName).join(', ')}) VALUES (${names.map(value).join(', ')})`,
  ].join('\n');
}

/**
 * Staged keys stored in a partition outside `range`: rows whose partitioning column has
 * changed since they were written. Reads the key and partitioning columns of the other
 * partitions only; its one row (how many, earliest and latest value, how many NULL) lets the
 * MERGE cover their partitions too, so a changed row is updated, never inserted twice.
 */
export function misplacedKeysSql(target: TableRef, staging: TableRef, table: TableSpec, range: PartitionRange): string {
  const column = `T.${quoteName(table.partitionBy!)}`;
  return [
    `SELECT COUNT(*) AS misplaced, MIN(${column}) AS earliest, MAX(${column}) AS latest, SUM(CASE WHEN ${column} IS NULL THEN 1 ELSE 0 END) AS undated`,
    `FROM ${quoteTable(target)} AS T`,
    `WHERE ${outsideRange('T', table.partitionBy!, range)}`,
    `AND EXISTS (SELECT 1 FROM ${quoteTable(staging)} AS S WHERE ${keysMatch(table)})`,
  ].join('\n');
}

function keysMatch(table: TableSpec): string {
  return table.primaryKey.map((k) => `T.${quoteName(k)} = S.${quoteName(k)}`).join(' AND ');
}

/** True for a row of `alias` in one of the range's partitions. */
function insideRange(alias: string, column: string, range: PartitionRange): string {
  const col = `${alias}.${quoteName(column)}`;
  const dated = range.from !== undefined ? `${col} >= @range_from AND ${col} < @range_to` : undefined;
  if (dated && range.nulls) return `(${dated} OR ${col} IS NULL)`;
  return dated ?? `${col} IS NULL`;
}

/** True for a row of `alias` in any other partition. */
function outsideRange(alias: string, column: string, range: PartitionRange): string {
  const col = `${alias}.${quoteName(column)}`;
  if (range.from === undefined) return `${col} IS NOT NULL`;
  return `(${col} < @range_from OR ${col} >= @range_to${range.nulls ? '' : ` OR ${col} IS NULL`})`;
}

/** DDL equivalent of what `ensureTables` creates through the tables API (for `aivis streams`). */
export function createTableDdl(ref: TableRef, table: TableSpec): string {
  return `${[
    `CREATE TABLE IF NOT EXISTS ${quoteTable(ref)} (`,
    columnDefinitions(table, true),
    ')',
    ...(table.partitionBy ? [`PARTITION BY DATE(${quoteName(table.partitionBy)})`] : []),
    ...(table.clusterBy?.length ? [`CLUSTER BY ${table.clusterBy.map(quoteName).join(', ')}`] : []),
    `OPTIONS (description = ${stringLiteral(table.description)})`,
  ].join('\n')};`;
}

/** DDL equivalent of what `ensureViews` creates through the tables API (for `aivis streams`). */
export function createViewDdl(ref: TableRef, view: ViewSpec, query: string): string {
  const columns = view.columns.map(
    (c) => `  ${quoteName(c.name)} OPTIONS (description = ${stringLiteral(c.description)})`,
  );
  return `CREATE OR REPLACE VIEW ${quoteTable(ref)} (\n${columns.join(',\n')}\n)\nOPTIONS (description = ${stringLiteral(view.description)})\nAS ${query};`;
}

const stringLiteral = BIGQUERY_DIALECT.literal;

function columnDefinitions(table: TableSpec, described = false): string {
  return table.columns
    .map(
      (c) =>
        `  ${quoteName(c.name)} ${BIGQUERY_TYPES[c.type]}${c.nullable ? '' : ' NOT NULL'}${described ? ` OPTIONS (description = ${stringLiteral(c.description)})` : ''}`,
    )
    .join(',\n');
}

export function createDatasetDdl(project: string, dataset: string, location: string): string {
  return `CREATE SCHEMA IF NOT EXISTS ${BIGQUERY_DIALECT.qualified([project, dataset])} OPTIONS (location = ${stringLiteral(location)});`;
}

/**
 * The lock table is created together with its one row, whose lease ended at the epoch, in one
 * job: BigQuery makes a `CREATE TABLE ... AS SELECT` visible with its rows or not at all, and
 * of two runs creating it at once the second finds it there. No statement ever inserts a lock
 * row beside it (an INSERT never conflicts in BigQuery, so two runs inserting at once would
 * both succeed); taking the lock is an UPDATE, and BigQuery serializes UPDATEs of one table.
 * The values are our own constants: DDL takes no query parameters.
 */
export function createLockTableSql(lock: TableRef, table: TableSpec, name: string): string {
  return [
    `CREATE TABLE IF NOT EXISTS ${quoteTable(lock)} (`,
    columnDefinitions(table),
    ')',
    `AS SELECT ${stringLiteral(name)} AS name, '' AS run_id, '' AS host, 0 AS pid, '' AS started_at, TIMESTAMP '1970-01-01 00:00:00+00' AS expires_at`,
  ].join('\n');
}

/**
 * A lock table of aivis 0.1 was created empty and got its row from a separate INSERT; one
 * whose creator died in between has none. Such a row may then be inserted twice by runs
 * starting together, which `acquireLockSql` makes harmless.
 */
export function createLockRowSql(lock: TableRef): string {
  return [
    `INSERT INTO ${quoteTable(lock)} (name, run_id, host, pid, started_at, expires_at)`,
    "SELECT @name, '', '', 0, '', @epoch FROM (SELECT 1)",
    `WHERE NOT EXISTS (SELECT 1 FROM ${quoteTable(lock)} WHERE name = @name)`,
  ].join('\n');
}

/**
 * Takes the lease unless a live lease of another run exists, whatever the number of rows
 * (tables of aivis 0.1 may hold two): all rows of the name move together. Of two runs taking
 * it at once, BigQuery runs one UPDATE on a snapshot that includes the other's, or fails it.
 */
export function acquireLockSql(lock: TableRef): string {
  return [
    `UPDATE ${quoteTable(lock)}`,
    'SET run_id = @run_id, host = @host, pid = @pid, started_at = @started_at, expires_at = @expires_at',
    `WHERE name = @name AND NOT EXISTS (SELECT 1 FROM ${quoteTable(lock)} WHERE name = @name AND run_id <> @run_id AND expires_at >= @now)`,
  ].join('\n');
}

export function selectLockSql(lock: TableRef): string {
  return `SELECT run_id, host, pid, started_at, expires_at FROM ${quoteTable(lock)} WHERE name = @name`;
}

export function renewLockSql(lock: TableRef): string {
  return `UPDATE ${quoteTable(lock)} SET expires_at = @expires_at WHERE name = @name AND run_id = @run_id`;
}

/** Ends the lease and keeps the row, so the next run takes it with an UPDATE too. */
export function releaseLockSql(lock: TableRef): string {
  return `UPDATE ${quoteTable(lock)} SET expires_at = @epoch WHERE name = @name AND run_id = @run_id`;
}

/** The shared bookkeeping's statements on BigQuery: named parameters `@p0`, `@p1`..., names in backticks. */
export function bigqueryBookkeeping(client: BigqueryClient, ref: (table: string) => TableRef): BookkeepingSql {
  const named = (params: readonly SqlParam[]) =>
    Object.fromEntries(
      params.map((p, i): [string, QueryParam] => [
        `p${i}`,
        { type: p.type === 'timestamp' ? 'TIMESTAMP' : 'STRING', value: p.value },
      ]),
    );
  return bookkeepingSql(BIGQUERY_DIALECT, {
    table: (name) => quoteTable(ref(name)),
    // Before the first sync neither the table nor the dataset may exist.
    tableExists: async (name) => (await client.tableFields(name)) !== undefined,
    async selectAll(table) {
      return (
        await client.query(
          `SELECT ${table.columns.map((c) => quoteName(c.name)).join(', ')} FROM ${quoteTable(ref(table.name))}`,
        )
      ).rows;
    },
    select: async (sql, params) => (await client.query(sql, named(params))).rows,
    change: async (sql, params) => (await client.query(sql, named(params))).affectedRows,
  });
}
