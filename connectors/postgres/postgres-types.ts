/**
 * Logical column types as Postgres types, and values as CSV fields for `COPY ... FROM STDIN`.
 *
 * U+0000 rule: Postgres TEXT and JSONB cannot hold U+0000, so it is stored as U+FFFD (the
 * replacement character), in text columns and inside JSON strings and keys alike. Documented
 * in the README's Postgres section; the conformance suite checks it. JSONB also refuses
 * escapes of unpaired UTF-16 surrogates (`"\ud800"`); they become U+FFFD too.
 */
import type { CellValue, ColumnSpec, ColumnType } from '../../src/destination/table-spec.ts';
import { quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import { isLoneSurrogateEscape, mapJsonEscapes } from '../../src/json/well-formed.ts';

const SQL_TYPES: Readonly<Record<ColumnType, string>> = {
  string: 'TEXT',
  int64: 'BIGINT',
  float64: 'DOUBLE PRECISION',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMPTZ',
  json: 'JSONB',
};

export function postgresType(type: ColumnType): string {
  return SQL_TYPES[type];
}

export const REPLACEMENT_CHARACTER = '\uFFFD';

/** The stored form of a text value (see the U+0000 rule above). */
export function storedText(text: string): string {
  return text.replaceAll('\u0000', REPLACEMENT_CHARACTER);
}

/**
 * JSON text JSONB accepts: every `\u0000` escape, and every escape of an unpaired UTF-16
 * surrogate (JSONB refuses both), becomes `\ufffd`. Escapes are matched from the left in
 * whole units (a surrogate pair, one escape, or a backslash and its character), so an escaped
 * backslash followed by `u0000` is literal text and stays.
 */
export function storedJson(json: string): string {
  return UNSTORABLE_ESCAPE_HINT.test(json)
    ? mapJsonEscapes(json, (m) => (m === '\\u0000' || isLoneSurrogateEscape(m) ? '\\ufffd' : m))
    : json;
}

const UNSTORABLE_ESCAPE_HINT = /\\u(?:0000|d[89a-f])/i;

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
