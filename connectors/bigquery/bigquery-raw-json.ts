/**
 * How BigQuery reads the JSON of `_raw` for the fill of evolved columns
 * (src/evolution/fill-sql.ts). `_raw` was stored with `wide_number_mode => 'round'`: integers
 * from -2^63 to 2^64-1 exact, other numbers as FLOAT64, so `SAFE.INT64` takes exactly the
 * numbers `raw-cell.ts` takes (a whole FLOAT64 too; a fraction or a value beyond int64 is NULL).
 * A path names each key in double quotes; a key holding `"` or `\` cannot be named in
 * BigQuery's JSONPath and leaves the column NULL on the old rows (docs/served-contract.md#schema-evolution).
 */
import type { RawJsonDialect } from '../../src/evolution/fill-sql.ts';
import { quoteName } from './bigquery-sql.ts';

/** A single-quoted GoogleSQL literal (backslash escapes). */
const literal = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

const KINDS = { string: "= 'string'", number: "= 'number'", boolean: "= 'boolean'", present: "<> 'null'" } as const;

export const BIGQUERY_RAW_JSON: RawJsonDialect = {
  column: quoteName,
  valueAt(path) {
    if (!path.length) return quoteName('_raw');
    if (path.some((key) => /["\\]/.test(key))) return 'CAST(NULL AS JSON)';
    return `JSON_QUERY(${quoteName('_raw')}, ${literal(`$${path.map((key) => `."${key}"`).join('')}`)})`;
  },
  is: (x, kind) => `JSON_TYPE(${x}) ${KINDS[kind]}`,
  text: (x) => `JSON_VALUE(${x})`,
  matches: (text, pattern) => `REGEXP_CONTAINS(${text}, ${literal(pattern)})`,
  int64: (x) => `SAFE.INT64(${x})`,
  float64: (x) => `LAX_FLOAT64(${x})`,
  boolean: (x) => `LAX_BOOL(${x})`,
  json: (x) => x,
  timestamp: (text) => `TIMESTAMP(${text})`,
};
