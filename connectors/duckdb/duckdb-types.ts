/**
 * Catalog type names as logical column types, the staging types, how a value goes into the staging appender, and how
 * a column is read back in logical form. DuckDB stores U+0000 as is: no rule needed.
 */
import type { DuckDBAppender } from '@duckdb/node-api';
import type { CellValue, ColumnSpec, ColumnType } from '../../src/destination/table-spec.ts';
import { quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import { isoFromMicros } from '../../src/destination/timestamp-micros.ts';
import { SQL_TYPES } from './duckdb-dialect.ts';

/**
 * Staging keeps timestamps and JSON as text: the upsert casts them, so a malformed value
 * fails with DuckDB's own message naming the value.
 */
const STAGING_TYPES: Readonly<Record<ColumnType, string>> = { ...SQL_TYPES, timestamp: 'VARCHAR', json: 'VARCHAR' };

/** How `information_schema.columns.data_type` names each type of `SQL_TYPES`. */
export const CATALOG_TYPES: Readonly<Record<string, ColumnType>> = {
  VARCHAR: 'string',
  BIGINT: 'int64',
  DOUBLE: 'float64',
  BOOLEAN: 'boolean',
  'TIMESTAMP WITH TIME ZONE': 'timestamp',
  JSON: 'json',
};

export function stagingType(type: ColumnType): string {
  return STAGING_TYPES[type];
}

/** The SELECT expression turning a staging column into its target type. */
export function fromStaging(col: ColumnSpec): string {
  const name = quoteIdentifier(col.name);
  return STAGING_TYPES[col.type] === SQL_TYPES[col.type] ? name : `CAST(${name} AS ${SQL_TYPES[col.type]})`;
}

export function appendCell(appender: DuckDBAppender, type: ColumnType, value: CellValue | undefined): void {
  if (value === null || value === undefined) appender.appendNull();
  else if (type === 'int64') appender.appendBigInt(BigInt(value));
  else if (type === 'float64') appender.appendDouble(Number(value));
  else if (type === 'boolean') appender.appendBoolean(Boolean(value));
  else appender.appendVarchar(String(value));
}

/** A SELECT expression giving the column in logical JS form once passed through `decodeCell`. */
export function readExpression(col: ColumnSpec): string {
  const name = quoteIdentifier(col.name);
  switch (col.type) {
    case 'json':
      return `CAST(${name} AS VARCHAR) AS ${name}`;
    case 'timestamp':
      return `epoch_us(${name}) AS ${name}`;
    default:
      return name;
  }
}

export function decodeCell(type: ColumnType, value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  return type === 'timestamp' ? isoFromMicros(value as bigint) : (value as CellValue);
}
