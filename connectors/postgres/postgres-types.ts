/**
 * Catalog type names as logical column types, and values as CSV fields for `COPY ... FROM STDIN`.
 *
 * U+0000 rule: Postgres TEXT and JSONB cannot hold U+0000, so it is stored as U+FFFD (the
 * replacement character), in text columns and inside JSON strings and keys alike. Documented
 * in docs/destinations/postgres.md; the conformance suite checks it. (JSONB also refuses escapes
 * of unpaired UTF-16 surrogates, `"\ud800"`: `flushParts` has made those U+FFFD already, for
 * every destination, before a value reaches here.)
 */
import type { CellValue, ColumnSpec, ColumnType } from '../../src/destination/table-spec.ts';
import { quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import { mapJsonEscapes } from '../../src/json/well-formed.ts';

/** How `information_schema.columns.data_type` names each type of `SQL_TYPES` (postgres-dialect.ts). */
export const CATALOG_TYPES: Readonly<Record<string, ColumnType>> = {
  TEXT: 'string',
  BIGINT: 'int64',
  'DOUBLE PRECISION': 'float64',
  BOOLEAN: 'boolean',
  'TIMESTAMP WITH TIME ZONE': 'timestamp',
  JSONB: 'json',
};

export const REPLACEMENT_CHARACTER = '\uFFFD';

/** The stored form of a text value (see the U+0000 rule above). */
export function storedText(text: string): string {
  return text.replaceAll('\u0000', REPLACEMENT_CHARACTER);
}

/**
 * JSON text JSONB accepts: every `\u0000` escape (JSONB refuses it) becomes `\ufffd`. Escapes
 * are matched from the left in whole units, so an escaped backslash followed by `u0000` is
 * literal text and stays. Unpaired surrogates are gone already (`flushParts`, which every
 * commit goes through, applies `wellFormedJson`).
 */
export function storedJson(json: string): string {
  return json.includes('\\u0000') ? mapJsonEscapes(json, (m) => (m === '\\u0000' ? '\\ufffd' : m)) : json;
}

/** One CSV field: NULL is an empty unquoted field, every text is quoted (so '' stays ''). */
export function csvField(type: ColumnType, value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  switch (type) {
    case 'boolean':
      return value ? 't' : 'f';
    case 'int64':
    case 'float64':
      return String(value);
    case 'json':
      return quoteCsv(storedJson(String(value)));
    case 'string':
      return quoteCsv(storedText(String(value)));
    case 'timestamp':
      return quoteCsv(String(value));
  }
}

function quoteCsv(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * A SELECT expression giving the column in its logical JS form through node-postgres: BIGINT
 * and JSONB as text (exact), TIMESTAMPTZ as ISO-8601 UTC with microseconds.
 */
export function readExpression(col: ColumnSpec): string {
  const name = quoteIdentifier(col.name);
  switch (col.type) {
    case 'int64':
    case 'json':
      return `${name}::text AS ${name}`;
    case 'timestamp':
      return `to_char(${name} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ${name}`;
    default:
      return name;
  }
}
