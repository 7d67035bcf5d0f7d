/** Every SQL statement the Postgres connector runs. Identifiers are always quoted. */
import type { ColumnSpec, TableSpec } from '../../src/destination/table-spec.ts';
import { qualifiedName, quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import { onConflictUpsert } from '../../src/destination/on-conflict-upsert.ts';
import { updatableColumns } from '../../src/destination/upsert-columns.ts';
import { postgresType, readExpression } from './postgres-types.ts';

/** The staging table's extra column: position of a row in the flush, so the last one wins. */
export const ORDINAL = '_aivis_ordinal';

const list = (names: readonly string[]) => names.map(quoteIdentifier).join(', ');
const columnDefinition = (c: ColumnSpec, nullable = c.nullable) =>
  `${quoteIdentifier(c.name)} ${postgresType(c.type)}${nullable ? '' : ' NOT NULL'}`;

export function createSchema(schema: string): string {
  return `CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`;
}

export function createTable(schema: string, table: TableSpec): string {
  const lines = [...table.columns.map((c) => columnDefinition(c)), `PRIMARY KEY (${list(table.primaryKey)})`];
  return `CREATE TABLE IF NOT EXISTS ${qualifiedName(schema, table.name)} (\n  ${lines.join(',\n  ')}\n)`;
}

/** A column the contract added later: nullable, since existing rows have no value for it. */
export function addColumn(schema: string, table: string, column: ColumnSpec): string {
  return `ALTER TABLE ${qualifiedName(schema, table)} ADD COLUMN IF NOT EXISTS ${columnDefinition(column, true)}`;
}

/** Parameters: schema name. Rows: `table_name`, `column_name`. */
export const EXISTING_COLUMNS = 'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1';

/** Parameter: schema name. */
export const SCHEMA_EXISTS = 'SELECT 1 FROM pg_namespace WHERE nspname = $1';

/** Parameter: `"schema"."table"`. */
export const TABLE_EXISTS = 'SELECT to_regclass($1) IS NOT NULL AS present';

export function stagingName(table: TableSpec): string {
  return `_aivis_stage_${table.name}`;
}

/** Constraint-free, so a bad row fails at the target with the target's own message. */
export function createStaging(table: TableSpec): string {
  const columns = [...table.columns.map((c) => columnDefinition(c, true)), `${quoteIdentifier(ORDINAL)} BIGINT NOT NULL`];
  return `CREATE TEMP TABLE ${quoteIdentifier(stagingName(table))} (${columns.join(', ')}) ON COMMIT DROP`;
}

export function copyIntoStaging(table: TableSpec): string {
  const columns = [...table.columns.map((c) => c.name), ORDINAL];
  return `COPY ${quoteIdentifier(stagingName(table))} (${list(columns)}) FROM STDIN WITH (FORMAT csv)`;
}

export function upsertFromStaging(schema: string, table: TableSpec): string {
  return onConflictUpsert(table, { target: qualifiedName(schema, table.name), staging: quoteIdentifier(stagingName(table)), ordinal: ORDINAL });
}

/** Every row of `table` with each column in logical form (see `readExpression`). */
export function selectLogical(schema: string, table: TableSpec, where = ''): string {
  return `SELECT ${table.columns.map(readExpression).join(', ')} FROM ${qualifiedName(schema, table.name)}${where ? ` WHERE ${where}` : ''}`;
}

/** Parameters: stream or null, scope or null (null matches all). */
export function deleteState(schema: string, table: string): string {
  return `DELETE FROM ${qualifiedName(schema, table)} WHERE ($1::text IS NULL OR "stream" = $1) AND ($2::text IS NULL OR "scope" = $2)`;
}

export function activeWebsiteIds(schema: string, table: string): string {
  return `SELECT "id" FROM ${qualifiedName(schema, table)} WHERE "_removed_at" IS NULL ORDER BY "id"`;
}

/** Parameters: ids (text[]), removedAt. */
export function markRemoved(schema: string, table: string): string {
  return `UPDATE ${qualifiedName(schema, table)} SET "_removed_at" = $2::timestamptz WHERE "id" = ANY($1::text[]) AND "_removed_at" IS NULL`;
}

/** Parameter: lock key text. One advisory lock per database and schema. */
export const TRY_ADVISORY_LOCK = 'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked';
export const ADVISORY_UNLOCK = 'SELECT pg_advisory_unlock(hashtextextended($1, 0))';

/** Parameters: the lock row's columns in `lockTable` order. */
export function upsertLockRow(schema: string, table: TableSpec): string {
  const columns = table.columns.map((c) => c.name);
  const placeholders = columns.map((_, i) => `$${i + 1}`).join(', ');
  const updates = updatableColumns(table).map((c) => `${quoteIdentifier(c)} = EXCLUDED.${quoteIdentifier(c)}`);
  return `INSERT INTO ${qualifiedName(schema, table.name)} (${list(columns)}) VALUES (${placeholders}) ON CONFLICT (${list(table.primaryKey)}) DO UPDATE SET ${updates.join(', ')}`;
}

/** Parameters: lock name, run id. */
export function deleteLockRow(schema: string, table: string): string {
  return `DELETE FROM ${qualifiedName(schema, table)} WHERE "name" = $1 AND "run_id" = $2`;
}
