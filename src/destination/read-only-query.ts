/**
 * Reading the destination with a statement the user wrote (`aivis query`, and `import-prompts
 * --from-query`): the role each connector implements for it (`connectors/<name>/<name>-query.ts`,
 * created through `src/cli/destination-factory.ts`) and the one gate every such statement passes
 * before it runs (docs/cli.md#query).
 *
 * The gate has two layers, and a statement runs only past both:
 * 1. here, the statement's leading keyword must be one that reads (`READ_KEYWORDS`), so `COPY`,
 *    `SET`, `PRAGMA`, `ATTACH`, `INSERT` ... are refused whatever the engine would make of them;
 * 2. the engine's own reading of the text, taken without running it (`QueryRole.inspect`: DuckDB's
 *    prepared statement type, BigQuery's dry run, Snowflake's describe-only compile), must be one
 *    statement that reads; and the role runs it under the engine's read-only guard where the engine
 *    has one (a DuckDB file opened read-only, a Postgres `READ ONLY` transaction), whose refusals
 *    are worded by `severalStatements` and `notReadOnly` like the gate's own.
 *
 * @example
 * const role = await openQueryRole(config.destination, { logger });
 * const statement = await assertReadOnlyStatement(sql, role, 'aivis query');
 * const result = await role.run(statement, 1000);
 */
import { ConfigError } from '../errors.ts';
import type { SqlDialect } from './sql-dialect.ts';

/**
 * A value of a result row, whatever the engine: 64-bit integers as `bigint` where the engine
 * hands them so (always exact), exact decimals and temporal values as the engine's own text,
 * arrays and objects (JSON, lists, structs, Postgres arrays) as JSON values.
 */
export type QueryCell = null | boolean | number | bigint | string | readonly QueryCell[] | QueryObject;
export interface QueryObject {
  readonly [key: string]: QueryCell;
}

/** A statement that passed the gate; only `assertReadOnlyStatement` makes one. */
export interface ReadOnlyStatement {
  readonly sql: string;
  /** Who runs it, as refusals name it: `aivis query`, `--from-query`. */
  readonly caller: string;
  readonly [gatePassed]: true;
}
declare const gatePassed: unique symbol;

/** The engine's reading of a statement, taken without running it. */
export interface StatementReading {
  /** True when the text holds more than one statement. */
  readonly several: boolean;
  /** The statement's kind as the engine names it: `SELECT`, `INSERT`, `CREATE`, `SCRIPT` ... */
  readonly kind: string;
  /** Whether the engine counts it as a read (a query that changes nothing). */
  readonly reads: boolean;
}

export interface QueryResult {
  /** Column names in the result's order (duplicates kept). */
  readonly columns: readonly string[];
  /**
   * The rows, a page at a time as the engine hands them, so nothing holds the whole result.
   * Stopping early (`break`) closes the cursor. Iterate once.
   */
  readonly pages: AsyncIterable<readonly (readonly QueryCell[])[]>;
}

/** What a connector offers for reading with a user's statement. */
export interface QueryRole {
  /** `DuckDB`, `Postgres`, `BigQuery`, `Snowflake`: how messages name the engine. */
  readonly engine: string;
  /** Its SQL dialect: how aivis quotes a name in a statement it writes around the user's. */
  readonly dialect: SqlDialect;
  /**
   * The engine's reading of `sql` (one statement, which kind), without running it. An engine that
   * can only judge at run time (Postgres) answers from the text and guards the run instead.
   * Text the engine cannot read (a syntax error, an unknown table) is a `ConfigError` naming why,
   * and a statement reading a file rather than the warehouse is `readsFile(caller, file)`.
   */
  inspect(sql: string, caller: string): Promise<StatementReading>;
  /**
   * Runs a statement the gate passed, under the engine's read-only guard, and pages its rows
   * (`pageRows` at most per page).
   */
  run(statement: ReadOnlyStatement, pageRows: number): Promise<QueryResult>;
  /**
   * A table of the configured schema as a statement must name it where unqualified names do not
   * resolve there (BigQuery: `` `project.dataset.table` ``); absent where they do.
   */
  qualify?(table: string): string;
  /** Closes the connection; safe to call twice. */
  close(): Promise<void>;
}

/** Leading keywords of statements that read; anything else is refused before the engine sees it. */
export const READ_KEYWORDS: readonly string[] = ['SELECT', 'WITH', 'VALUES', 'TABLE', 'FROM', 'SHOW', 'DESCRIBE'];

/**
 * Checks that `sql` is one read-only statement, by the text and by the engine's own reading, and
 * returns it as a statement `role.run` takes. Throws a `ConfigError` (exit 2) naming what is
 * wrong, before anything runs.
 */
export async function assertReadOnlyStatement(
  sql: string,
  role: Pick<QueryRole, 'engine' | 'inspect'>,
  caller: string,
): Promise<ReadOnlyStatement> {
  const keyword = leadingKeyword(sql);
  if (keyword === undefined) {
    throw new ConfigError(
      `${caller}: the statement is empty: give one read-only statement, such as "SELECT * FROM websites"`,
    );
  }
  if (!READ_KEYWORDS.includes(keyword)) throw notReadOnly(caller, keyword);
  const reading = await role.inspect(sql, caller);
  if (reading.several) throw severalStatements(caller);
  if (!reading.reads) throw notReadOnly(caller, reading.kind);
  return { sql, caller } as ReadOnlyStatement;
}

/** The refusal of a text with more than one statement. */
export function severalStatements(caller: string): ConfigError {
  return new ConfigError(
    `${caller} runs one statement, and this text holds more than one: refused before any ran (run them one at a time)`,
  );
}

/**
 * The refusal of a statement that reads a file or URL instead of the warehouse (DuckDB's
 * `read_text`, `read_csv`, `glob`, a quoted file name in FROM): the name, never the content.
 */
export function readsFile(caller: string, file: string): ConfigError {
  return new ConfigError(
    `${caller} reads tables and views of the warehouse only, never a file: "${file}" was refused unread`,
  );
}

/** The refusal of a statement that does not only read; `kind` as the statement or the engine names it. */
export function notReadOnly(caller: string, kind: string): ConfigError {
  return new ConfigError(
    `${caller} runs read-only statements only, and this is ${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind} statement: ` +
      `refused before it ran (read with SELECT; change data with the warehouse's own tools)`,
  );
}

/**
 * The statement's first word, upper-cased, past blanks, comments and opening parentheses;
 * undefined when there is none (an empty text, or only comments and semicolons).
 */
export function leadingKeyword(sql: string): string | undefined {
  const rest = sql.replace(/^(?:\s|;|\(|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, '');
  const word = /^[A-Za-z_]+/.exec(rest)?.[0];
  if (word !== undefined) return word.toUpperCase();
  return rest.length === 0 ? undefined : rest.slice(0, 1);
}

/** `rows` in pages of `size` rows (the last one shorter), for engines that hand rows one at a time. */
export async function* inPages<T>(rows: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let page: T[] = [];
  for await (const row of rows) {
    page.push(row);
    if (page.length >= size) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}
