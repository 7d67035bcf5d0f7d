/**
 * The small, documented rewrites that let DuckDB run the Snowflake SQL our connector sends.
 * Everything else is passed through unchanged, so SQL DuckDB cannot run fails loudly instead
 * of being "fixed" here.
 *
 * (`PARSE_JSON` is a macro of each session: it keeps the text, see variant-text.ts.)
 *
 * Applied outside string literals and quoted identifiers only:
 * - unquoted words fold to upper case, as Snowflake folds unquoted identifiers (so result
 *   column names come back upper-case, and `websites` names the table `"WEBSITES"`);
 * - types: `VARIANT` -> `JSON`, `NUMBER(p,s)` -> `DECIMAL(p,s)`, `TIMESTAMP_TZ` ->
 *   `TIMESTAMPTZ`, `FLOAT` -> `DOUBLE` (Snowflake's FLOAT is 64-bit; DuckDB's is 32-bit),
 *   `ARRAY` -> `JSON[]` (a list of JSON values: one array may mix texts, numbers and objects, as
 *   Snowflake's semi-structured ARRAY may; result-encoding.ts answers it as Snowflake's `array`);
 * - `ARRAY_CONSTRUCT(a, b, ...)` -> `CAST(JSON_ARRAY(a, b, ...) AS JSON[])` (not kept: Snowflake
 *   stores a NULL argument as `undefined`, JSON_ARRAY as `null`; array constants `['a', 'b']` are
 *   DuckDB's typed lists and do not cast to `JSON[]`; array-construct.ts refuses what Snowflake does);
 * - `USE SCHEMA a.b` -> `USE a.b`;
 * - `"DB".INFORMATION_SCHEMA.` -> `INFORMATION_SCHEMA.` (DuckDB has one information schema
 *   for every catalog; queries filter on `TABLE_CATALOG`), and its `TABLES` and `COLUMNS` gain
 *   Snowflake's `COMMENT` column (DuckDB names it `TABLE_COMMENT`, `COLUMN_COMMENT`), and
 *   `COLUMNS.DATA_TYPE` says Snowflake's type names (`TEXT`, `NUMBER`, `FLOAT`, `TIMESTAMP_TZ`, `VARIANT`);
 * - `ALTER VIEW v ALTER COLUMN c COMMENT 's'` (Snowflake's form for a view column's comment)
 *   -> `COMMENT ON COLUMN v.c IS 's'`;
 * - `CREATE TABLE t (a TEXT COMMENT 's') COMMENT = 'u'` -> the CREATE TABLE, then `COMMENT ON`
 *   each (inline-comments.ts; rewriteStatements keeps them apart, for the session to run only
 *   when the CREATE made the table);
 * - `CREATE OR REPLACE VIEW v COPY GRANTS AS` -> without `COPY GRANTS` (DuckDB has no grants);
 * - `ALTER TABLE t UNSET COMMENT` (and `ALTER VIEW`) -> `COMMENT ON TABLE t IS NULL`.
 * String literals are read as Snowflake reads them (backslash escapes, `''`) and written as
 * DuckDB's (`../backslash-literal.ts`).
 */
import { decodeBackslashBody, duckdbLiteral } from '../backslash-literal.ts';
import { inlineComments } from './inline-comments.ts';
import { splitSql } from './sql-segments.ts';

/** `COLUMNS.DATA_TYPE` as Snowflake names the types the rewrites above map to DuckDB's. */
const SNOWFLAKE_DATA_TYPE = `CASE WHEN DATA_TYPE = 'VARCHAR' THEN 'TEXT' WHEN DATA_TYPE LIKE 'DECIMAL%' THEN 'NUMBER' WHEN DATA_TYPE = 'DOUBLE' THEN 'FLOAT' WHEN DATA_TYPE = 'TIMESTAMP WITH TIME ZONE' THEN 'TIMESTAMP_TZ' WHEN DATA_TYPE = 'JSON' THEN 'VARIANT' ELSE DATA_TYPE END`;

const WORDS: Readonly<Record<string, string>> = {
  VARIANT: 'JSON',
  NUMBER: 'DECIMAL',
  TIMESTAMP_TZ: 'TIMESTAMPTZ',
  FLOAT: 'DOUBLE',
  ARRAY: 'JSON[]',
};

export { type SqlSegment, splitSql } from './sql-segments.ts';

export function rewriteSql(sql: string): string {
  return rewriteStatements(sql).join('; ');
}

/** rewriteSql's DuckDB statements: the one `sql` became, or a CREATE TABLE and its comments' `COMMENT ON`s. */
export function rewriteStatements(sql: string): string[] {
  const folded = splitSql(sql)
    .map((s) =>
      s.kind === 'code'
        ? s.text.replace(/[A-Za-z_][A-Za-z0-9_$]*/g, (w) => WORDS[w.toUpperCase()] ?? w.toUpperCase())
        : s.kind === 'literal'
          ? duckdbLiteral(decodeBackslashBody(s.text.slice(1, -1), "'"))
          : s.text,
    )
    .join('');
  return inlineComments(arrayConstruct(folded)).map(duckdbForms);
}

/** A folded statement with the rewrites listed above that work on its text (USE SCHEMA to UNSET COMMENT). */
function duckdbForms(statement: string): string {
  return statement
    .replace(/^(\s*)USE\s+SCHEMA\s+/, '$1USE ')
    .replace(/(?:"[^"]+"|[A-Z_][A-Z0-9_$]*)\.INFORMATION_SCHEMA\./g, 'INFORMATION_SCHEMA.')
    .replace(
      /\bINFORMATION_SCHEMA\.(TABLES|COLUMNS)\b/g,
      (_, view: string) =>
        `(SELECT *${view === 'TABLES' ? '' : ` REPLACE (${SNOWFLAKE_DATA_TYPE} AS DATA_TYPE)`}, ${view === 'TABLES' ? 'TABLE_COMMENT' : 'COLUMN_COMMENT'} AS "COMMENT" FROM INFORMATION_SCHEMA.${view})`,
    )
    .replace(/^(\s*)ALTER\s+VIEW\s+(\S+)\s+ALTER\s+COLUMN\s+(\S+)\s+COMMENT\s+/, '$1COMMENT ON COLUMN $2.$3 IS ')
    .replace(/^(\s*CREATE\s+OR\s+REPLACE\s+VIEW\s+\S+)\s+COPY\s+GRANTS\b/, '$1')
    .replace(/^(\s*)ALTER\s+(TABLE|VIEW)\s+(\S+)\s+UNSET\s+COMMENT\s*$/, '$1COMMENT ON $2 $3 IS NULL');
}

const ARRAY_CONSTRUCT = /\bARRAY_CONSTRUCT\s*\(|[()]/g;

/** Each ARRAY_CONSTRUCT(...) of folded `sql`, outside literals and quoted names, as a DuckDB `JSON[]`. */
function arrayConstruct(sql: string): string {
  // One entry per open parenthesis: whether it opened an ARRAY_CONSTRUCT.
  const open: boolean[] = [];
  return splitSql(sql)
    .map((s) =>
      s.kind !== 'code'
        ? s.text
        : s.text.replace(ARRAY_CONSTRUCT, (token) => {
            if (token === ')') return open.pop() ? ') AS JSON[])' : ')';
            open.push(token !== '(');
            return token === '(' ? '(' : 'CAST(JSON_ARRAY(';
          }),
    )
    .join('');
}

/** The first keyword of a statement, upper-cased (`SELECT`, `MERGE`, `CREATE`, ...). */
export function leadingKeyword(sql: string): string {
  return /^\s*\(?\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
}

/** The number of `?` placeholders in code segments of `sql`. */
export function countPlaceholders(sql: string): number {
  return splitSql(sql)
    .filter((s) => s.kind === 'code')
    .reduce((n, s) => n + (s.text.match(/\?/g)?.length ?? 0), 0);
}
