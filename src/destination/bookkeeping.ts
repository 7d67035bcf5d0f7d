/**
 * The bookkeeping SQL role every destination plays (`Destination.bookkeeping()`): how it
 * writes names and parameters, and how it runs a statement. The domain queries over it
 * (reading and deleting saved state, listing and marking removed websites, marking abandoned
 * runs, the ids of a website's rows in a window) are written once in `queries/`; their SQL is
 * plain enough to read the same on Postgres, DuckDB, BigQuery and Snowflake. A connector
 * supplies its dialect and a `BookkeepingSession`; the names and placeholders come from the
 * dialect. See docs/architecture.md#adding-a-destination.
 */
import type { SqlDialect, SqlParam } from './sql-dialect.ts';
import type { TableSpec } from './table-spec.ts';

export type { SqlParam } from './sql-dialect.ts';

/** What a connector runs the shared queries with. */
export interface BookkeepingSession {
  /** The named table of the destination's schema, quoted and qualified. */
  table(name: string): string;
  /** Whether the named table exists yet: before the first sync it does not. */
  tableExists(name: string): Promise<boolean>;
  /** Every row of `table`, each column in its logical form (names as the table spec writes them). */
  selectAll(table: TableSpec): Promise<Record<string, unknown>[]>;
  /** Runs a query; returns its rows. */
  select(sql: string, params: readonly SqlParam[]): Promise<Record<string, unknown>[]>;
  /** Runs an UPDATE or DELETE; returns how many rows it changed. */
  change(sql: string, params: readonly SqlParam[]): Promise<number>;
}

/** Parameters as drivers with typed placeholders take them: bare values (`$n` placeholders cast a timestamp). */
export function paramValues(params: readonly SqlParam[]): string[] {
  return params.map((p) => p.value);
}

/** What the shared queries need from a connector: its session, named and parameterized by its dialect. */
export interface BookkeepingSql extends BookkeepingSession {
  readonly dialect: SqlDialect;
  /** A column name as the destination writes it (`dialect.identifier`). */
  column(name: string): string;
  /** The placeholder of the statement's `index`-th parameter (from 0), read as `param.type` (`dialect.placeholder`). */
  placeholder(index: number, param: SqlParam): string;
}

export function bookkeepingSql(dialect: SqlDialect, session: BookkeepingSession): BookkeepingSql {
  return {
    dialect,
    column: (name) => dialect.identifier(name),
    placeholder: (index, param) => dialect.placeholder(index, param),
    table: (name) => session.table(name),
    tableExists: (name) => session.tableExists(name),
    selectAll: (table) => session.selectAll(table),
    select: (sql, params) => session.select(sql, params),
    change: (sql, params) => session.change(sql, params),
  };
}
