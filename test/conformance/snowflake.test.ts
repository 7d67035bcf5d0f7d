/**
 * The conformance suite on Snowflake: the real `snowflake-sdk` against the local stand-in
 * (test/stand-ins/snowflake), over loopback. The suite reads through a session of its own.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startStandIn, type StandInSetup } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { snowflakeRowReader, type SnowflakeRowReader } from '../stand-ins/snowflake/row-reader.ts';
import { runConformanceSuite } from './suite.ts';

let setup: StandInSetup;
let reader: SnowflakeRowReader;

beforeAll(async () => {
  setup = await startStandIn();
  reader = await snowflakeRowReader(setup);
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
  readRows: (_destination, schema, table) => reader.rows(schema, table),
});
