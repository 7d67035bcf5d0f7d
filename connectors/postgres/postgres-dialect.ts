/**
 * How Postgres's SQL writes names, strings, parameters, types, casts and reads of the JSONB in
 * `_raw` (src/destination/sql-dialect.ts). No driver: the descriptor hands it to the core.
 *
 * Literals are written as node-postgres's `escapeLiteral` writes them: quotes doubled, and a
 * text holding a backslash in the `E'...'` form with backslashes doubled too, which reads the
 * same whether the session has `standard_conforming_strings` on or off (only a backslash reads
 * differently); aivis's sessions also set it on
 * (postgres-client.ts). Postgres text cannot hold U+0000 (docs/destinations/postgres.md): it is
 * U+FFFD, as in the rows and in JSONB keys.
 */
import { dollarPlaceholder } from '../../src/destination/sql-statements.ts';
import { type SqlDialect, withoutNul } from '../../src/destination/sql-dialect.ts';
import { qualifiedName, quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import type { ColumnType } from '../../src/destination/table-spec.ts';

export const SQL_TYPES: Readonly<Record<ColumnType, string>> = {
  string: 'TEXT',
  int64: 'BIGINT',
  float64: 'DOUBLE PRECISION',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMPTZ',
  json: 'JSONB',
};

/** Quotes doubled; with a backslash, the `E'...'` form with backslashes doubled too (`escapeLiteral`'s rule). */
function literal(text: string): string {
  const quoted = withoutNul(text).replaceAll("'", "''");
  return quoted.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

const KINDS = { string: "= 'string'", number: "= 'number'", boolean: "= 'boolean'", present: "<> 'null'" } as const;

export const POSTGRES_DIALECT: SqlDialect = {
  identifier: quoteIdentifier,
  exactName: quoteIdentifier,
  qualified: (parts) => qualifiedName(...parts),
  literal,
  placeholder: dollarPlaceholder,
  typeName: (type) => SQL_TYPES[type],
  // A CAST to JSONB parses text and refuses numbers; to_jsonb takes any value as it is.
  cast: (expr, type) => (type === 'json' ? `to_jsonb(${expr})` : `CAST(${expr} AS ${SQL_TYPES[type]})`),
  firstPart: (text, separator) => `split_part(${text}, ${literal(separator)}, 1)`,
  json: {
    valueAt: (path) => (path.length ? `("_raw" #> ARRAY[${path.map(literal).join(', ')}]::text[])` : `"_raw"`),
    is: (x, kind) => `jsonb_typeof(${x}) ${KINDS[kind]}`,
    text: (x) => `(${x} #>> '{}')`,
    matches: (text, pattern) => `(${text} ~ ${literal(pattern)})`,
    int64(x) {
      const digits = `(${x} #>> '{}')`;
      const double = `(${x})::float8`;
      return `CASE WHEN ${digits} ~ '^-?[0-9]+$' THEN CASE WHEN ${digits}::numeric BETWEEN -9223372036854775808 AND 9223372036854775807 THEN ${digits}::numeric::bigint END WHEN ${double} = trunc(${double}) AND abs(${double}) < 9223372036854775808::float8 THEN ${double}::bigint END`;
    },
    float64: (x) => `(${x})::float8`,
    boolean: (x) => `(${x})::boolean`,
    json: (x) => x,
    timestamp: (text) => `(${text})::timestamptz`,
  },
};
