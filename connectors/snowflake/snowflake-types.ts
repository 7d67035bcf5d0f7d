/**
 * Catalog type names as logical column types, and values both ways.
 *
 * Rows travel to Snowflake as text (every staged column is VARCHAR) and are converted by SQL
 * in the MERGE: that keeps binds single-typed (the driver picks one bind type per column
 * from the first row, and cannot bind a bigint at all) and keeps int64 exact.
 * Reads come back through the driver with NUMBER and VARIANT fetched as strings.
 */
import { int64FromText } from '../../src/destination/int64-value.ts';
import type { CellValue, ColumnType, Row, TableSpec } from '../../src/destination/table-spec.ts';
import type { SnowflakeRow } from './snowflake-client.ts';
import { SQL_TYPES } from './snowflake-dialect.ts';

/** How `INFORMATION_SCHEMA.COLUMNS.DATA_TYPE` names each type of `SQL_TYPES`. */
export const CATALOG_TYPES: Readonly<Record<string, ColumnType>> = {
  TEXT: 'string',
  NUMBER: 'int64',
  FLOAT: 'float64',
  BOOLEAN: 'boolean',
  TIMESTAMP_TZ: 'timestamp',
  VARIANT: 'json',
};

/** A row value as the staged text Snowflake casts back (`'inf'`/`'NaN'` are Snowflake's float spellings). */
export function toStagedText(type: ColumnType, value: CellValue | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'float64' && typeof value === 'number' && !Number.isFinite(value))
    return Number.isNaN(value) ? 'NaN' : value > 0 ? 'inf' : '-inf';
  return String(value);
}

/** SQL turning the staged text column `column` (already quoted) into the column's type. */
export function fromStagedText(type: ColumnType, column: string): string {
  return type === 'string' ? column : type === 'json' ? `PARSE_JSON(${column})` : `${column}::${SQL_TYPES[type]}`;
}

/** The driver's timestamp: a Date carrying Snowflake's exact seconds and nanoseconds. */
interface SnowflakeDate extends Date {
  getEpochSeconds(): number;
  getNanoSeconds(): number;
}

/** A value the driver returned (NUMBER and VARIANT fetched as strings) in its logical JS form. */
export function fromDriverValue(type: ColumnType, value: unknown): CellValue {
  // A NUMBER fetched as string comes back as the text 'NULL' when it is NULL (the driver's
  // DataTypes.getNullValue()); no number is spelled that way, so it cannot hide a value.
  if (value === null || value === undefined || ((type === 'int64' || type === 'float64') && value === 'NULL'))
    return null;
  switch (type) {
    case 'int64':
      return int64FromText(String(value));
    case 'float64':
      return Number(value);
    case 'boolean':
      return value === true || value === 'true' || value === '1';
    case 'timestamp':
      return isoFromDate(value as SnowflakeDate);
    default:
      return String(value);
  }
}

/** `2026-01-02T03:04:05.123456Z`, exact to the microsecond (a JS Date alone keeps milliseconds). */
function isoFromDate(date: SnowflakeDate): string {
  const seconds = date.getEpochSeconds();
  const micros = Math.floor(date.getNanoSeconds() / 1000);
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}.${String(micros).padStart(6, '0')}Z`;
}

/** A row as the driver returns it (upper-case keys) in its logical form (contract names and JS types). */
export function decodeRow(table: TableSpec, row: SnowflakeRow): Row {
  return Object.fromEntries(table.columns.map((c) => [c.name, fromDriverValue(c.type, row[c.name.toUpperCase()])]));
}
