/**
 * The live Snowflake check, run by `snowflake-live.test.ts` as a child process WITHOUT the
 * loopback guard (the one test meant to leave the machine, and only when asked to). On a
 * throwaway schema: check, tables, the lock, a flush with an in-batch duplicate, an int64
 * beyond 2^53, microseconds, JSON and state; then drops the schema. Prints one JSON line.
 */
import { randomBytes } from 'node:crypto';
import type { SnowflakeConfig } from '../../schemas/config.ts';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { connectSnowflake } from '../../connectors/snowflake/snowflake-client.ts';
import { connectionOptions, snowflakeLocation } from '../../connectors/snowflake/snowflake-config.ts';
import { decodeRow } from '../../connectors/snowflake/snowflake-rows.ts';
import { schemaName, selectAllSql } from '../../connectors/snowflake/snowflake-sql.ts';
import { LockHeldError } from '../../src/errors.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable, owner, stateEntry } from '../conformance/fixtures.ts';

const env = (name: string) => process.env[`AIVIS_TEST_SNOWFLAKE_${name}`];
const config: SnowflakeConfig = {
  type: 'snowflake',
  account: env('ACCOUNT')!,
  username: env('USER')!,
  ...(env('PRIVATE_KEY_FILE') ? { private_key_file: env('PRIVATE_KEY_FILE'), private_key_passphrase: env('PRIVATE_KEY_PASSPHRASE') } : { password: env('PASSWORD') }),
  warehouse: env('WAREHOUSE')!,
  database: env('DATABASE')!,
  schema: `aivis_live_${randomBytes(4).toString('hex')}`,
  role: env('ROLE'),
  access_url: env('ACCESS_URL'), // private link; unset for the account's public URL
};

const destination = createSnowflakeDestination(config, { logger: silentLogger });
const other = createSnowflakeDestination(config, { logger: silentLogger });
const admin = await connectSnowflake(connectionOptions(config));
try {
  await destination.open();
  await other.open();
  await destination.check();
  await destination.ensureTables([...ENGINE_TABLES, kindsTable]);
  const lock = await destination.acquireLock(owner('live-1', process.pid));
  const refused = await other.acquireLock(owner('live-2', process.pid)).then(
    () => 'acquired',
    (error: unknown) => (error instanceof LockHeldError ? 'refused' : String(error)),
  );
  const result = await destination.commit(
    flushOf(
      kindsTable,
      [kindsRow('r1', { i: 1 }), kindsRow('r1', { i: 9007199254740993n, j: '{"a":[1,2]}', t: '2026-01-02T03:04:05.123456Z', b: true, f: 0.1 })],
      [stateEntry('mentions', 'web_1', 'f1')],
    ),
  );
  const rows = (await admin.execute(selectAllSql(snowflakeLocation(config), kindsTable))).map((row) => {
    const decoded = decodeRow(kindsTable, row);
    return { ...decoded, i: String(decoded.i), j: JSON.parse(String(decoded.j)) as unknown };
  });
  const state = await destination.readState();
  await lock.release();
  process.stdout.write(JSON.stringify({ refused, result, rows, state }) + '\n');
} finally {
  await destination.close();
  await other.close();
  await admin.execute(`DROP SCHEMA IF EXISTS ${schemaName(snowflakeLocation(config))} CASCADE`).catch(() => undefined);
  await admin.close();
}
