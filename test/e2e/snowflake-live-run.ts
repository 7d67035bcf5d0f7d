/**
 * The live Snowflake check, run by `snowflake-live.test.ts` as a child process WITHOUT the
 * loopback guard (the one test meant to leave the machine, and only when asked to). On a
 * throwaway schema: check, tables, the lock, a flush with an in-batch duplicate, an int64
 * beyond 2^53, microseconds, JSON and state, and how Snowflake spells a FLOAT and a VARIANT
 * (snowflake-live-probe.ts); then drops the schema. Prints one JSON line.
 */
import { randomBytes } from 'node:crypto';
import type { SnowflakeConfig } from '../../schemas/config.ts';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { connectSnowflake } from '../../connectors/snowflake/snowflake-client.ts';
import { connectionOptions, snowflakeLocation } from '../../connectors/snowflake/snowflake-config.ts';
import { decodeRow } from '../../connectors/snowflake/snowflake-types.ts';
import { schemaName, selectAllSql } from '../../connectors/snowflake/snowflake-sql.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { kindsTable } from '../conformance/fixtures.ts';
import { exerciseLiveDestination } from '../support/live-destination.ts';
import { PROBE_FLOAT, PROBE_JSON, PROBE_SQL } from './snowflake-live-probe.ts';

const env = (name: string) => process.env[`AIVIS_TEST_SNOWFLAKE_${name}`];
const config: SnowflakeConfig = {
  type: 'snowflake',
  account: env('ACCOUNT')!,
  username: env('USER')!,
  ...(env('PRIVATE_KEY_FILE')
    ? { private_key_file: env('PRIVATE_KEY_FILE'), private_key_passphrase: env('PRIVATE_KEY_PASSPHRASE') }
    : { password: env('PASSWORD') }),
  warehouse: env('WAREHOUSE')!,
  database: env('DATABASE')!,
  schema: `aivis_live_${randomBytes(4).toString('hex')}`,
  role: env('ROLE'),
  access_url: env('ACCESS_URL'), // private link; unset for the account's public URL
};

const destination = createSnowflakeDestination(config, { logger: silentLogger });
const other = createSnowflakeDestination(config, { logger: silentLogger });
const admin = await connectSnowflake(connectionOptions(config), 'aivis-test');
try {
  await exerciseLiveDestination(
    destination,
    other,
    async () =>
      (await admin.execute(selectAllSql(snowflakeLocation(config), kindsTable))).map((row) => {
        const decoded = decodeRow(kindsTable, row);
        return { ...decoded, i: String(decoded.i), j: JSON.parse(String(decoded.j)) as unknown };
      }),
    async () => {
      const [row] = await admin.execute(PROBE_SQL, [String(PROBE_FLOAT), PROBE_JSON]);
      return { float: row?.F, variant: row?.V };
    },
  );
} finally {
  await destination.close();
  await other.close();
  await admin.execute(`DROP SCHEMA IF EXISTS ${schemaName(snowflakeLocation(config))} CASCADE`).catch(() => undefined);
  await admin.close();
}
