/** `aivis verify` on Snowflake: the real driver against the stand-in, damage done by hand in SQL. */
import { vi } from 'vitest';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { DATABASE } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { SUITE_FAULTS, useSnowflakeStandIn } from '../stand-ins/snowflake/stand-in-hooks.ts';
import { runVerifySuite } from './verify-suite.ts';

vi.setConfig({ testTimeout: 180_000 });
const sf = useSnowflakeStandIn({ faults: SUITE_FAULTS });

runVerifySuite({
  name: 'snowflake',
  create: async (schema) => createSnowflakeDestination(sf.setup().config(schema), { logger: silentLogger }),
  readRows: (_destination, schema, table) => sf.reader().rows(schema, table),
  qualifiedName: (schema, table) => `${DATABASE}.${schema}.${table}`,
  execute: (_schema, statement) => sf.reader().execute(statement),
  json: (text) => `PARSE_JSON('${text}')`,
  timestamp: (text) => `'${text}'::TIMESTAMP_TZ`,
  insertBySelect: true,
});
