/**
 * Logical column types (`src/destination/table-spec.ts`) as BigQuery sees them, and the two
 * value encodings the connector needs: NDJSON lines for load jobs, and the cells of query
 * results (`{f:[{v}]}`, every cell a string; TIMESTAMP as int64 microseconds because the
 * client asks for `useInt64Timestamp`).
 */
import type { CellValue, ColumnSpec, ColumnType, Row } from '../../src/destination/table-spec.ts';
import { int64FromText } from '../../src/destination/int64-value.ts';
import { isoFromMicros } from '../../src/destination/timestamp-micros.ts';

export type BigqueryType = 'STRING' | 'INT64' | 'FLOAT64' | 'BOOL' | 'TIMESTAMP' | 'JSON';

export const BIGQUERY_TYPES: Readonly<Record<ColumnType, BigqueryType>> = {
  string: 'STRING',
  int64: 'INT64',
  float64: 'FLOAT64',
  boolean: 'BOOL',
  timestamp: 'TIMESTAMP',
  json: 'JSON',
};

/** The logical type of each field of a table (legacy names included); other types are left out. */
export function columnTypesOfFields(fields: readonly BigqueryField[]): Map<string, ColumnType> {
  const legacy: Readonly<Record<string, BigqueryType>> = { INTEGER: 'INT64', FLOAT: 'FLOAT64', BOOLEAN: 'BOOL' };
  const logical = new Map(Object.entries(BIGQUERY_TYPES).map(([type, bq]) => [bq as string, type as ColumnType]));
  const columns = new Map<string, ColumnType>();
  for (const field of fields) {
    const type = logical.get(legacy[field.type] ?? field.type);
    if (type && field.mode !== 'REPEATED') columns.set(field.name, type);
  }
  return columns;
}

/** A field of a table resource (`tables.insert`, `tables.patch`). */
export interface BigqueryField {
  readonly name: string;
  readonly type: string;
  readonly mode?: 'NULLABLE' | 'REQUIRED' | 'REPEATED';
  readonly description?: string;
}

export function targetField(col: ColumnSpec): BigqueryField {
  return {
    name: col.name,
    type: BIGQUERY_TYPES[col.type],
    mode: col.nullable ? 'NULLABLE' : 'REQUIRED',
    ...(col.description ? { description: col.description } : {}),
  };
}

/**
 * Staging columns are all NULLABLE and JSON travels as STRING: the MERGE turns it into JSON
 * with `PARSE_JSON`, so a load never has to re-parse (and round) the record text.
 */
export function stagingField(col: ColumnSpec): BigqueryField {
  return { name: col.name, type: col.type === 'json' ? 'STRING' : BIGQUERY_TYPES[col.type], mode: 'NULLABLE' };
}

/**
 * One row as an NDJSON line. INT64 goes as a quoted decimal so no JSON parser on the way can
 * round it; JSON columns go as their text in a string (see `stagingField`).
 */
export function ndjsonLine(columns: readonly ColumnSpec[], row: Row): string {
  const out: Record<string, string | number | boolean | null> = {};
  for (const col of columns) out[col.name] = encodeLoadValue(row[col.name] ?? null);
  return `${JSON.stringify(out)}\n`;
}

function encodeLoadValue(value: CellValue): string | number | boolean | null {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** A query-result cell in the logical form of `table-spec.ts` (int64 exact, timestamp ISO). */
export function decodeCell(type: string, cell: unknown): CellValue {
  if (cell === null || cell === undefined) return null;
  const text = String(cell);
  switch (type) {
    case 'INT64':
    case 'INTEGER':
      return int64FromText(text);
    case 'FLOAT64':
    case 'FLOAT':
      return Number(text);
    case 'BOOL':
    case 'BOOLEAN':
      return text === 'true';
    case 'TIMESTAMP':
      return isoFromMicros(BigInt(text));
    default:
      return text;
  }
}
