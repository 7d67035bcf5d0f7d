/**
 * DuckDB result columns as BigQuery describes and encodes them in a query response. An array
 * (a DuckDB list) is a REPEATED field of its element type, each cell `{v: [{v: ...}, ...]}`;
 * BigQuery answers a NULL array as an empty one and refuses to write an array holding a NULL
 * ("Array cannot have a null element"; its ARRAY documentation).
 */
import { DuckDBListType, DuckDBListValue, type DuckDBType } from '@duckdb/node-api';
import { invalidQuery } from './stand-in-errors.ts';

/** The BigQuery type a DuckDB result column reports. */
export function bigqueryType(type: DuckDBType): string {
  if (type.alias === 'JSON') return 'JSON';
  const name = type.toString();
  if (name === 'VARCHAR') return 'STRING';
  if (/^(BIGINT|INTEGER|SMALLINT|TINYINT|HUGEINT|UBIGINT|UINTEGER)$/.test(name)) return 'INT64';
  if (/^(DOUBLE|FLOAT|DECIMAL.*)$/.test(name)) return 'FLOAT64';
  if (name === 'BOOLEAN') return 'BOOL';
  if (name.startsWith('TIMESTAMP')) return 'TIMESTAMP';
  return 'STRING';
}

/** A result column's field: a list is REPEATED, of its elements' type. */
export function resultField(name: string, type: DuckDBType): { name: string; type: string; mode: string } {
  return type instanceof DuckDBListType
    ? { name, type: bigqueryType(type.valueType), mode: 'REPEATED' }
    : { name, type: bigqueryType(type), mode: 'NULLABLE' };
}

/** A cell's `v` as the REST API sends it: a string, or an array's list of `{v}`. */
export type RestCell = string | null | { v: string | null }[];

/** A cell as the REST API sends it: a string, TIMESTAMP as int64 microseconds, an array as a list of `{v}`. */
export function encodeCell(value: unknown, field: { name: string; mode: string }): RestCell {
  if (field.mode === 'REPEATED') {
    const items = value instanceof DuckDBListValue ? value.items : [];
    if (items.includes(null))
      throw invalidQuery(`Array cannot have a null element; error in writing field ${field.name}`);
    return items.map((item) => ({ v: scalarCell(item) }));
  }
  return scalarCell(value);
}

function scalarCell(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && 'micros' in value) return String((value as { micros: bigint }).micros);
  return String(value);
}
