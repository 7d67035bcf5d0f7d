/**
 * How Snowflake's SQL writes names, strings, parameters, types, casts and reads of the VARIANT
 * in `_raw` (src/destination/sql-dialect.ts). No SDK: the descriptor hands it to the core.
 *
 * A name is written unquoted when plain (Snowflake folds it to upper case), else quoted in upper
 * case: the very name the unquoted form would give. A string literal escapes with backslashes
 * as well as by doubling `'`, so both are escaped. `GET` takes one object key at a time, so a
 * key needs no path syntax; a JSON integer is `IS_INTEGER` (NUMBER of scale 0, up to 38
 * digits), any other number `IS_DECIMAL` or `IS_DOUBLE`.
 */
import { backslashLiteral, type SqlDialect } from '../../src/destination/sql-dialect.ts';
import { quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import type { ColumnType } from '../../src/destination/table-spec.ts';

export const SQL_TYPES: Readonly<Record<ColumnType, string>> = {
  string: 'VARCHAR',
  int64: 'NUMBER(38,0)',
  float64: 'FLOAT',
  boolean: 'BOOLEAN',
  timestamp: 'TIMESTAMP_TZ',
  json: 'VARIANT',
};

/** Snowflake's reserved keywords (docs: "Reserved & limited keywords"), which cannot be unquoted names. */
const RESERVED = new Set(
  `ACCOUNT ALL ALTER AND ANY AS BETWEEN BY CASE CAST CHECK COLUMN CONNECT CONNECTION CONSTRAINT CREATE CROSS CURRENT
  CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER DATABASE DELETE DISTINCT DROP ELSE EXISTS FALSE FOLLOWING FOR
  FROM FULL GRANT GROUP GSCLUSTER HAVING ILIKE IN INCREMENT INNER INSERT INTERSECT INTO IS ISSUE JOIN LATERAL LEFT LIKE
  LOCALTIME LOCALTIMESTAMP MINUS NATURAL NOT NULL OF ON OR ORDER ORGANIZATION QUALIFY REGEXP REVOKE RIGHT RLIKE ROW ROWS
  SAMPLE SCHEMA SELECT SET SOME START TABLE TABLESAMPLE THEN TO TRIGGER TRUE TRY_CAST UNION UNIQUE UPDATE USING VALUES
  VIEW WHEN WHENEVER WHERE WITH`.split(/\s+/),
);

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A name as Snowflake is given it. A plain name (letters, digits, underscores, not a reserved
 * word) is written unquoted, so Snowflake stores it upper-case and users query
 * `aivis.websites` or `AIVIS.WEBSITES` alike, and `aivis streams` shows readable DDL.
 * Anything else is quoted in upper case: the very name the unquoted form would give.
 */
export function ident(name: string): string {
  return PLAIN.test(name) && !RESERVED.has(name.toUpperCase()) ? name : quoteIdentifier(name.toUpperCase());
}

const literal = (text: string): string => backslashLiteral(text);

export const SNOWFLAKE_DIALECT: SqlDialect = {
  identifier: ident,
  exactName: quoteIdentifier,
  qualified: (parts) => parts.map(ident).join('.'),
  literal,
  placeholder: (_index, param) => (param.type === 'timestamp' ? '?::TIMESTAMP_TZ' : '?'),
  typeName: (type) => SQL_TYPES[type],
  cast: (expr, type) => `CAST(${expr} AS ${SQL_TYPES[type]})`,
  firstPart: (text, separator) => `split_part(${text}, ${literal(separator)}, 1)`,
  json: {
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
  },
};
