/** The tests' own reads of a Snowflake schema: a separate session, rows in logical form. */
import { connectSnowflake } from '../../../connectors/snowflake/snowflake-client.ts';
import { connectionOptions, snowflakeLocation } from '../../../connectors/snowflake/snowflake-config.ts';
import { decodeRow } from '../../../connectors/snowflake/snowflake-types.ts';
import { selectAllSql } from '../../../connectors/snowflake/snowflake-sql.ts';
import type { TableSpec } from '../../../src/destination/table-spec.ts';
import { normalizeRow, type LogicalRow } from '../../conformance/normalize.ts';
import type { StandInSetup } from './stand-in-fixture.ts';

export interface SnowflakeRowReader {
  /** Every row of `table` in `schema`, normalized (test/conformance/normalize.ts). */
  rows(schema: string, table: TableSpec): Promise<LogicalRow[]>;
  close(): Promise<void>;
}

export async function snowflakeRowReader(setup: StandInSetup): Promise<SnowflakeRowReader> {
  const client = await connectSnowflake(connectionOptions(setup.config('AIVIS')));
  return {
    async rows(schema, table) {
      const rows = await client.execute(selectAllSql(snowflakeLocation(setup.config(schema)), table));
      return rows.map((row) => normalizeRow(table, decodeRow(table, row)));
    },
    close: () => client.close(),
  };
}
