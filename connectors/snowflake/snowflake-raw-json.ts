/**
 * How Snowflake reads the VARIANT of `_raw` for the fill of evolved columns
 * (src/evolution/fill-sql.ts). `GET` takes one object key at a time, so a key needs no path
 * syntax; a JSON integer is `IS_INTEGER` (NUMBER of scale 0, up to 38 digits), any other number
 * `IS_DECIMAL` or `IS_DOUBLE`.
 */
import { stringLiteral } from '../../src/destination/descriptions.ts';
import type { RawJsonDialect } from '../../src/evolution/fill-sql.ts';
import { ident } from './snowflake-sql.ts';

const literal = (text: string) => stringLiteral(text, true);

export const SNOWFLAKE_RAW_JSON: RawJsonDialect = {
  column: ident,
  valueAt: (path) => path.reduce((x, key) => `GET(${x}, ${literal(key)})`, ident('_raw')),
  is(x, kind) {
    switch (kind) {
      case 'string':
        return `IS_VARCHAR(${x})`;
      case 'number':
        return `(IS_INTEGER(${x}) OR IS_DECIMAL(${x}) OR IS_DOUBLE(${x}))`;
      case 'boolean':
        return `IS_BOOLEAN(${x})`;
      case 'present':
        return `NOT IS_NULL_VALUE(${x})`;
    }
  },
  text: (x) => `AS_VARCHAR(${x})`,
  matches: (text, pattern) => `REGEXP_LIKE(${text}, ${literal(pattern)})`,
  int64(x) {
    const exact = `${x}::VARCHAR::NUMBER(38,0)`;
    const double = `${x}::FLOAT`;
    return `CASE WHEN IS_INTEGER(${x}) AND ${exact} BETWEEN -9223372036854775808 AND 9223372036854775807 THEN ${exact} WHEN NOT IS_INTEGER(${x}) AND ${double} = FLOOR(${double}) AND ABS(${double}) < 9223372036854775808 THEN ${double}::NUMBER(38,0) END`;
  },
  float64: (x) => `${x}::FLOAT`,
  boolean: (x) => `${x}::BOOLEAN`,
  json: (x) => x,
  timestamp: (text) => `(${text})::TIMESTAMP_TZ`,
};
