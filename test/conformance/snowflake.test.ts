/**
 * The conformance suite on Snowflake: the real `snowflake-sdk` against the local stand-in
 * (test/stand-ins/snowflake), over loopback. The suite reads through a session of its own.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { connectSnowflake, type SnowflakeClient } from '../../connectors/snowflake/snowflake-client.ts';
import { connectionOptions, snowflakeLocation } from '../../connectors/snowflake/snowflake-config.ts';
import { decodeRow } from '../../connectors/snowflake/snowflake-destination.ts';
import { selectAllSql } from '../../connectors/snowflake/snowflake-sql.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startStandIn, type StandInSetup } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { normalizeRow } from './normalize.ts';
import { runConformanceSuite } from './suite.ts';

let setup: StandInSetup;
let reader: SnowflakeClient;

beforeAll(async () => {
  setup = await startStandIn();
  reader = await connectSnowflake(connectionOptions(setup.config('AIVIS')));
});

afterAll(async () => {
  await reader.close();
  // Every batch stayed under the array-binding threshold: the driver never tried a cloud stage.
  expect(setup.standIn.stats.stageBindAttempts).toBe(0);
  expect(setup.standIn.openSessions()).toBe(0);
  await setup.standIn.close();
});

runConformanceSuite({
  name: 'snowflake',
  create: async (schema) => createSnowflakeDestination(setup.config(schema), { logger: silentLogger }),
  async readRows(_destination, schema, table) {
    const rows = await reader.execute(selectAllSql(snowflakeLocation(setup.config(schema)), table));
    return rows.map((row) => normalizeRow(table, decodeRow(table, row)));
  },
});
