/**
 * The end-to-end sync suite on Snowflake: the sandbox over loopback -> the API client -> the
 * engine -> the real `snowflake-sdk` -> the Snowflake stand-in, row for row against the
 * sandbox's truth; and its first test again with nanosecond timestamps (stored as
 * microseconds; frontiers with nanoseconds are proven by the Postgres and DuckDB runs).
 */
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { useSnowflakeStandIn } from '../stand-ins/snowflake/stand-in-hooks.ts';
import { runSyncSuite, type SyncTarget } from './sync-suite.ts';

const sf = useSnowflakeStandIn();

const target: SyncTarget = {
  name: 'snowflake',
  create: async (schema) => createSnowflakeDestination(sf.setup().config(schema), { logger: silentLogger }),
  readRows: (_destination, schema, table) => sf.reader().rows(schema, table),
  comments: (schema) => sf.reader().comments(schema),
};
runSyncSuite(target);
runSyncSuite(target, { variants: ['nanosecond_timestamps'], only: ['incremental'] });
