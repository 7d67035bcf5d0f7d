/** The tests' own reads of a Snowflake schema: a separate session, rows in logical form. */
import { connectSnowflake } from '../../../connectors/snowflake/snowflake-client.ts';
import { connectionOptions, snowflakeLocation } from '../../../connectors/snowflake/snowflake-config.ts';
import { decodeRow } from '../../../connectors/snowflake/snowflake-types.ts';
import { selectAllSql } from '../../../connectors/snowflake/snowflake-sql.ts';
import type { StoredComment } from '../../../src/destination/descriptions.ts';
import type { TableSpec } from '../../../src/destination/table-spec.ts';
import { normalizeRow, type LogicalRow } from '../../conformance/normalize.ts';
import { DATABASE, type StandInSetup } from './stand-in-fixture.ts';

export interface SnowflakeRowReader {
  /** Every row of `table` in `schema`, normalized (test/conformance/normalize.ts). */
  rows(schema: string, table: TableSpec): Promise<LogicalRow[]>;
  /** The comments the catalog holds for the schema's tables, views and columns (names as stored: upper case). */
  comments(schema: string): Promise<StoredComment[]>;
  /** A statement of the test's own, as a user's worksheet would run it. */
  execute(statement: string): Promise<void>;
  close(): Promise<void>;
}

export async function snowflakeRowReader(setup: StandInSetup): Promise<SnowflakeRowReader> {
  const client = await connectSnowflake(connectionOptions(setup.config('AIVIS')), 'aivis-test');
  return {
    async rows(schema, table) {
      const rows = await client.execute(selectAllSql(snowflakeLocation(setup.config(schema)), table));
      return rows.map((row) => normalizeRow(table, decodeRow(table, row)));
    },
    async comments(schema) {
      const rows = await client.execute(
        `SELECT TABLE_NAME, NULL AS COLUMN_NAME, COMMENT FROM ${DATABASE}.INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ?
         UNION ALL SELECT TABLE_NAME, COLUMN_NAME, COMMENT FROM ${DATABASE}.INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ?`,
        [schema.toUpperCase(), schema.toUpperCase()],
      );
      return rows.map((row) => ({
        table_name: String(row.TABLE_NAME),
        column_name: row.COLUMN_NAME === null ? null : String(row.COLUMN_NAME),
        comment: row.COMMENT === null ? null : String(row.COMMENT),
      }));
    },
    execute: async (statement) => void (await client.execute(statement)),
    close: () => client.close(),
  };
}
