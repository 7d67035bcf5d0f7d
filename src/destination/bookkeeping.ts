/**
 * The bookkeeping SQL role every destination plays (`Destination.bookkeeping()`): how it
 * writes names and parameters, and how it runs a statement. The domain queries over it
 * (reading and deleting saved state, listing and marking removed websites, marking abandoned
 * runs, the ids of a website's rows in a window) are written once in `queries/`; their SQL is
 * plain enough to read the same on Postgres, DuckDB, BigQuery and Snowflake. See
 * docs/architecture.md#adding-a-destination.
 */
import type { TableSpec } from './table-spec.ts';

/** One statement parameter and the type the warehouse should read it as. */
export interface SqlParam {
  readonly type: 'string' | 'timestamp';
  readonly value: string;
}

/** What the shared queries need from a connector. */
export interface BookkeepingSql {
  /** The named table of the destination's schema, quoted and qualified. */
  table(name: string): string;
  /** A column name as the destination writes it. */
  column(name: string): string;
  /** The placeholder of the statement's `index`-th parameter (from 0), read as `param.type`. */
  placeholder(index: number, param: SqlParam): string;
  /** Whether the named table exists yet: before the first sync it does not. */
  tableExists(name: string): Promise<boolean>;
  /** Every row of `table`, each column in its logical form (names as the table spec writes them). */
  selectAll(table: TableSpec): Promise<Record<string, unknown>[]>;
  /** Runs a query; returns its rows. */
  select(sql: string, params: readonly SqlParam[]): Promise<Record<string, unknown>[]>;
  /** Runs an UPDATE or DELETE; returns how many rows it changed. */
  change(sql: string, params: readonly SqlParam[]): Promise<number>;
}
