/**
 * How BigQuery's GoogleSQL writes names, strings, parameters, types, casts and reads of the
 * JSON in `_raw` (src/destination/sql-dialect.ts). No SDK: the descriptor hands it to the core.
 *
 * Names are quoted in backticks, a table as one `` `project.dataset.table` ``. A string literal
 * escapes with backslashes, and a quoted string cannot hold a line break, so control characters
 * are written `\xhh`. `_raw` was stored with `wide_number_mode => 'round'`: integers from -2^63
 * to 2^64-1 exact, other numbers as FLOAT64, so `SAFE.INT64` takes exactly the numbers
 * `raw-cell.ts` takes (a whole FLOAT64 too; a fraction or a value beyond int64 is NULL). A path
 * names each key in double quotes; a key holding `"` or `\` cannot be named in BigQuery's
 * JSONPath and leaves the column NULL on the old rows (docs/served-contract.md#schema-evolution).
 */
import { backslashLiteral, type SqlDialect } from '../../src/destination/sql-dialect.ts';
import { BIGQUERY_TYPES } from './bigquery-types.ts';

const CONTROL = /^[\u0001-\u001f\u007f]$/;

const literal = (text: string): string =>
  backslashLiteral(text, (char) =>
    CONTROL.test(char) ? `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}` : undefined,
  );

/** One part of a quoted name: backslash escapes, as in a string. */
const namePart = (name: string) => name.replaceAll('\\', '\\\\').replaceAll('`', '\\`');

const KINDS = { string: "= 'string'", number: "= 'number'", boolean: "= 'boolean'", present: "<> 'null'" } as const;

const identifier = (name: string) => `\`${namePart(name)}\``;

export const BIGQUERY_DIALECT: SqlDialect = {
  identifier,
  exactName: identifier,
  qualified: (parts) => `\`${parts.map(namePart).join('.')}\``,
  literal,
  placeholder: (index) => `@p${index}`,
  typeName: (type) => BIGQUERY_TYPES[type],
  // A string becomes JSON by PARSE_JSON; any other value by TO_JSON, which CAST cannot do.
  cast: (expr, type) => (type === 'json' ? `TO_JSON(${expr})` : `CAST(${expr} AS ${BIGQUERY_TYPES[type]})`),
  firstPart: (text, separator) => `split(${text}, ${literal(separator)})[offset(0)]`,
  json: {
    valueAt(path) {
      if (!path.length) return '`_raw`';
      if (path.some((key) => /["\\]/.test(key))) return 'CAST(NULL AS JSON)';
      return `JSON_QUERY(\`_raw\`, ${literal(`$${path.map((key) => `."${key}"`).join('')}`)})`;
    },
    is: (x, kind) => `JSON_TYPE(${x}) ${KINDS[kind]}`,
    text: (x) => `JSON_VALUE(${x})`,
    matches: (text, pattern) => `REGEXP_CONTAINS(${text}, ${literal(pattern)})`,
    int64: (x) => `SAFE.INT64(${x})`,
    float64: (x) => `LAX_FLOAT64(${x})`,
    boolean: (x) => `LAX_BOOL(${x})`,
    json: (x) => x,
    timestamp: (text) => `TIMESTAMP(${text})`,
  },
};
