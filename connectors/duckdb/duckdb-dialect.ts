/**
 * How DuckDB's SQL writes names, strings, parameters, types, casts and reads of the JSON in
 * `_raw` (src/destination/sql-dialect.ts). No driver: the descriptor hands it to the core.
 *
 * A plain DuckDB string knows no backslash escape, so doubling `'` is the whole of a literal.
 * A JSON path is a JSON pointer, so any key can be named; `json_type` says `UBIGINT` or
 * `BIGINT` for a number written as digits that fits 64 bits, `DOUBLE` for any other.
 */
import { ansiLiteral, type SqlDialect } from '../../src/destination/sql-dialect.ts';
import { qualifiedName, quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import { dollarPlaceholder } from '../../src/destination/sql-statements.ts';
import type { ColumnType } from '../../src/destination/table-spec.ts';

export const SQL_TYPES: Readonly<Record<ColumnType, string>> = {
  string: 'VARCHAR',
  int64: 'BIGINT',
  float64: 'DOUBLE',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMPTZ',
  json: 'JSON',
};

const pointer = (path: readonly string[]) =>
  path.map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

const KINDS = {
  string: "= 'VARCHAR'",
  number: "IN ('BIGINT', 'UBIGINT', 'DOUBLE')",
  boolean: "= 'BOOLEAN'",
  present: "<> 'NULL'",
} as const;

export const DUCKDB_DIALECT: SqlDialect = {
  identifier: quoteIdentifier,
  exactName: quoteIdentifier,
  qualified: (parts) => qualifiedName(...parts),
  literal: ansiLiteral,
  placeholder: dollarPlaceholder,
  typeName: (type) => SQL_TYPES[type],
  // A CAST to JSON parses text; to_json takes any value as it is.
  cast: (expr, type) => (type === 'json' ? `to_json(${expr})` : `CAST(${expr} AS ${SQL_TYPES[type]})`),
  firstPart: (text, separator) => `split_part(${text}, ${ansiLiteral(separator)}, 1)`,
  json: {
    valueAt: (path) => (path.length ? `json_extract("_raw", ${ansiLiteral(pointer(path))})` : `"_raw"`),
    is: (x, kind) => `json_type(${x}) ${KINDS[kind]}`,
    text: (x) => `json_extract_string(${x}, '$')`,
    matches: (text, pattern) => `regexp_full_match(${text}, ${ansiLiteral(pattern)})`,
    int64(x) {
      const double = `CAST(json_extract_string(${x}, '$') AS DOUBLE)`;
      return `CASE WHEN json_type(${x}) IN ('BIGINT', 'UBIGINT') THEN TRY_CAST(json_extract_string(${x}, '$') AS BIGINT) WHEN ${double} = floor(${double}) AND abs(${double}) < 9223372036854775808.0 THEN CAST(${double} AS BIGINT) END`;
    },
    float64: (x) => `CAST(json_extract_string(${x}, '$') AS DOUBLE)`,
    boolean: (x) => `CAST(json_extract_string(${x}, '$') AS BOOLEAN)`,
    json: (x) => x,
    timestamp: (text) => `CAST(${text} AS TIMESTAMPTZ)`,
  },
};
