/**
 * A destination's SQL dialect (docs/architecture.md#adding-a-destination): how its SQL writes a
 * name, a string, a parameter, a type, a cast and a read of JSON. Each connector declares one,
 * free of any SDK, in `connectors/<name>/<name>-dialect.ts`; its descriptor exposes it to the
 * core, and every statement of the connector and of the shared SQL (`sql-statements.ts`, the
 * bookkeeping queries, the views, the fill of evolved columns) is written over it.
 *
 * Literals: every string aivis puts into SQL text goes through `literal`, which must read back
 * exactly whatever the session's settings (Postgres `standard_conforming_strings`, backslash
 * escapes of BigQuery and Snowflake): text aivis did not write (served descriptions and field
 * names) is never able to end the literal.
 */
import type { ColumnType } from './table-spec.ts';

/** One statement parameter and the type the warehouse should read it as. */
export interface SqlParam {
  readonly type: 'string' | 'timestamp';
  readonly value: string;
}

/**
 * How the dialect reads a value of the JSON stored in `_raw` (the fill of evolved columns,
 * `src/evolution/fill-sql.ts`); `x` is such a value.
 */
export interface JsonAccess {
  /** The JSON value at `path` (object keys from the root) of the row's `_raw`; NULL where absent. */
  valueAt(path: readonly string[]): string;
  /** True when `x` is a JSON value of this kind (`present`: any but JSON null); NULL or false else. */
  is(x: string, kind: 'string' | 'number' | 'boolean' | 'present'): string;
  /** The text of a JSON string. */
  text(x: string): string;
  /** True when `text` matches `pattern` whole (a POSIX ERE every destination reads alike). */
  matches(text: string, pattern: string): string;
  /** A JSON number as int64: digits exactly within int64, any other number as a double when whole and within int64 (`raw-cell.ts`). */
  int64(x: string): string;
  float64(x: string): string;
  boolean(x: string): string;
  /** A JSON value as the json column type. */
  json(x: string): string;
  /** Canonical text `YYYY-MM-DDThh:mm:ss.ffffffZ` as a timestamp. */
  timestamp(text: string): string;
}

export interface SqlDialect {
  /** One of aivis's names (schema, table, column, alias) as the SQL must write it. */
  identifier(name: string): string;
  /**
   * A name quoted to mean exactly `name`, case and all: a user's (`--from-table`'s quoted parts,
   * a result's column). Where `identifier` folds nothing it is the same.
   */
  exactName(name: string): string;
  /** A name qualified by its containers (`database`, `schema`, `table`), each part as it must be written. */
  qualified(parts: readonly string[]): string;
  /**
   * A string literal that reads back as `text` whatever the session's settings. U+0000 becomes
   * U+FFFD: no driver carries it inside SQL text (the statement would end there).
   */
  literal(text: string): string;
  /** The placeholder of a statement's `index`-th parameter (from 0), read as `param.type`. */
  placeholder(index: number, param: SqlParam): string;
  /** A logical column type (`table-spec.ts`) as this SQL names it (docs/tables.md). */
  typeName(type: ColumnType): string;
  /**
   * `expr`, a value of another logical type, as a value of `type` (views showing a column and its
   * variants as one, dbt's key tests). To `json`: the value as JSON (a text becomes a JSON string).
   */
  cast(expr: string, type: ColumnType): string;
  /** The text of `text` before the first `separator`, all of it when there is none. */
  firstPart(text: string, separator: string): string;
  readonly json: JsonAccess;
}

/** Text without U+0000, which no SQL text carries: U+FFFD in its place. */
export function withoutNul(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/** The ANSI literal: `'` doubled. Sound only where a backslash is no escape (DuckDB's plain strings). */
export function ansiLiteral(text: string): string {
  return `'${withoutNul(text).replaceAll("'", "''")}'`;
}

/**
 * A literal in which a backslash escapes (Snowflake, BigQuery): `\` and `'` escaped with one, the
 * characters of `escapes` as the dialect writes them.
 */
export function backslashLiteral(
  text: string,
  escapes: (char: string) => string | undefined = () => undefined,
): string {
  let out = "'";
  for (const char of withoutNul(text)) out += char === '\\' || char === "'" ? `\\${char}` : (escapes(char) ?? char);
  return `${out}'`;
}
