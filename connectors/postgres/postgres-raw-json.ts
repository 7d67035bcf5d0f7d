/** How Postgres reads the JSONB of `_raw` for the fill of evolved columns (src/evolution/fill-sql.ts). */
import { stringLiteral } from '../../src/destination/descriptions.ts';
import { quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import type { RawJsonDialect } from '../../src/evolution/fill-sql.ts';

const KINDS = { string: "= 'string'", number: "= 'number'", boolean: "= 'boolean'", present: "<> 'null'" } as const;

export const POSTGRES_RAW_JSON: RawJsonDialect = {
  column: quoteIdentifier,
  valueAt: (path) =>
    path.length ? `("_raw" #> ARRAY[${path.map((key) => stringLiteral(key)).join(', ')}]::text[])` : `"_raw"`,
  is: (x, kind) => `jsonb_typeof(${x}) ${KINDS[kind]}`,
  text: (x) => `(${x} #>> '{}')`,
  matches: (text, pattern) => `(${text} ~ ${stringLiteral(pattern)})`,
  int64(x) {
    const digits = `(${x} #>> '{}')`;
    const double = `(${x})::float8`;
    return `CASE WHEN ${digits} ~ '^-?[0-9]+$' THEN CASE WHEN ${digits}::numeric BETWEEN -9223372036854775808 AND 9223372036854775807 THEN ${digits}::numeric::bigint END WHEN ${double} = trunc(${double}) AND abs(${double}) < 9223372036854775808::float8 THEN ${double}::bigint END`;
  },
  float64: (x) => `(${x})::float8`,
  boolean: (x) => `(${x})::boolean`,
  json: (x) => x,
  timestamp: (text) => `(${text})::timestamptz`,
};
