/** Postgres as a test target: a destination per schema, and the tests' own reads of it. */
import pg from 'pg';
import { createPostgresDestination } from '../../../connectors/postgres/index.ts';
import type { Destination } from '../../../src/destination/destination.ts';
import type { StoredComment } from '../../../src/destination/descriptions.ts';
import type { TableSpec } from '../../../src/destination/table-spec.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { normalizeRow, type LogicalRow } from '../../conformance/normalize.ts';

export interface TestTarget {
  readonly name: string;
  create(schema: string): Promise<Destination>;
  readRows(destination: Destination, schema: string, table: TableSpec): Promise<LogicalRow[]>;
  /** The comment (description) of every table, view and column of `schema`, as the warehouse's catalog holds them. */
  comments(schema: string): Promise<StoredComment[]>;
  cleanup?(schema: string): Promise<void>;
  /** Releases what the target itself holds (pools, folders). */
  close(): Promise<void>;
}

/** A target's own statements on a schema, as a user's SQL client would run them (delete a row by hand, ...). */
export interface HandWrittenSql {
  /** `table` of `schema` as a statement names it. */
  qualifiedName(schema: string, table: string): string;
  execute(schema: string, statement: string): Promise<void>;
  /** A JSON value from `text` inside a statement (default the string literal, which Postgres and DuckDB cast). */
  json?(text: string): string;
  /** A timestamp from ISO text inside a statement (default the string literal). */
  timestamp?(text: string): string;
  /** Rows are inserted by `INSERT ... SELECT` (Snowflake's VALUES takes constants only, not PARSE_JSON). */
  readonly insertBySelect?: boolean;
}

export function postgresTarget(url: string): TestTarget & HandWrittenSql & { readonly pool: pg.Pool } {
  // The tests' own reads: every column as Postgres' text form, in UTC, then normalized.
  const pool = new pg.Pool({ connectionString: url, max: 2, options: '-c TimeZone=UTC' });
  return {
    name: 'postgres',
    pool,
    create: async (schema) => createPostgresDestination({ type: 'postgres', url, schema }, { logger: silentLogger }),
    async readRows(_destination, schema, table) {
      const columns = table.columns.map((c) => `"${c.name}"::text AS "${c.name}"`).join(', ');
      const { rows } = await pool.query(`SELECT ${columns} FROM "${schema}"."${table.name}"`);
      return rows.map((row) => normalizeRow(table, row));
    },
    async comments(schema) {
      const { rows } = await pool.query<StoredComment>(
        `SELECT c.relname AS table_name, NULL AS column_name, obj_description(c.oid) AS comment
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'v')
         UNION ALL
         SELECT table_name, column_name, col_description(format('%I.%I', table_schema, table_name)::regclass, ordinal_position)
         FROM information_schema.columns WHERE table_schema = $1`,
        [schema],
      );
      return rows;
    },
    qualifiedName: (schema, table) => `"${schema}"."${table}"`,
    execute: async (_schema, statement) => void (await pool.query(statement)),
    cleanup: async (schema) => void (await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)),
    close: () => pool.end(),
  };
}
