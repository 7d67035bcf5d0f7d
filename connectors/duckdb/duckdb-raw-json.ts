/**
 * How DuckDB reads the JSON of `_raw` for the fill of evolved columns
 * (src/evolution/fill-sql.ts). A path is a JSON pointer, so any key can be named; `json_type`
 * says `UBIGINT` or `BIGINT` for a number written as digits that fits 64 bits, `DOUBLE` for
 * any other.
 */
import { stringLiteral } from '../../src/destination/descriptions.ts';
import { quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import type { RawJsonDialect } from '../../src/evolution/fill-sql.ts';

const pointer = (path: readonly string[]) =>
  path.map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

const KINDS = {
  string: "= 'VARCHAR'",
  number: "IN ('BIGINT', 'UBIGINT', 'DOUBLE')",
  boolean: "= 'BOOLEAN'",
  present: "<> 'NULL'",
} as const;

export const DUCKDB_RAW_JSON: RawJsonDialect = {
  column: quoteIdentifier,
  valueAt: (path) => (path.length ? `json_extract("_raw", ${stringLiteral(pointer(path))})` : `"_raw"`),
  is: (x, kind) => `json_type(${x}) ${KINDS[kind]}`,
  text: (x) => `json_extract_string(${x}, '$')`,
  matches: (text, pattern) => `regexp_full_match(${text}, ${stringLiteral(pattern)})`,
  int64(x) {
    const double = `CAST(json_extract_string(${x}, '$') AS DOUBLE)`;
    return `CASE WHEN json_type(${x}) IN ('BIGINT', 'UBIGINT') THEN TRY_CAST(json_extract_string(${x}, '$') AS BIGINT) WHEN ${double} = floor(${double}) AND abs(${double}) < 9223372036854775808.0 THEN CAST(${double} AS BIGINT) END`;
  },
  float64: (x) => `CAST(json_extract_string(${x}, '$') AS DOUBLE)`,
  boolean: (x) => `CAST(json_extract_string(${x}, '$') AS BOOLEAN)`,
  json: (x) => x,
  timestamp: (text) => `CAST(${text} AS TIMESTAMPTZ)`,
};
