/**
 * The end-to-end sync suite on Snowflake: the sandbox over loopback -> the API client -> the
 * engine -> the real `snowflake-sdk` -> the Snowflake stand-in, row for row against the
 * sandbox's truth.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startStandIn, type StandInSetup } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { snowflakeRowReader, type SnowflakeRowReader } from '../stand-ins/snowflake/row-reader.ts';
import { runSyncSuite } from './sync-suite.ts';

let setup: StandInSetup;
let reader: SnowflakeRowReader;

beforeAll(async () => {
  setup = await startStandIn();
  reader = await snowflakeRowReader(setup);
});
afterAll(async () => {
  await reader.close();
  expect(setup.standIn.stats.stageBindAttempts).toBe(0);
  await setup.standIn.close();
});

runSyncSuite({
  name: 'snowflake',
  create: async (schema) => createSnowflakeDestination(setup.config(schema), { logger: silentLogger }),
  readRows: (_destination, schema, table) => reader.rows(schema, table),
});
