/** DuckDB result columns as BigQuery describes and encodes them in a query response. */
import type { DuckDBType } from '@duckdb/node-api';

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

/** A cell as the REST API sends it: a string, TIMESTAMP as int64 microseconds. */
export function encodeCell(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && 'micros' in value) return String((value as { micros: bigint }).micros);
  return String(value);
}
