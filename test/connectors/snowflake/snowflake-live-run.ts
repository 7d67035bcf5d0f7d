/**
 * The live Snowflake check, run by `snowflake-live.test.ts` as a child process WITHOUT the
 * loopback guard (the one test meant to leave the machine, and only when asked to). On a
 * throwaway schema with a mixed-case quoted name: check, tables, the lock, a flush with an
 * in-batch duplicate, an int64 beyond 2^53, microseconds, JSON and state, flushes of three
 * workspaces at once (MERGEs queued on one table's lock), the QUERY_TAG each session's
 * statements carry in QUERY_HISTORY, and how Snowflake spells a FLOAT and a VARIANT
 * (snowflake-live-probe.ts); then drops the schema. Prints one JSON line.
 */
import { randomBytes } from 'node:crypto';
import type { SnowflakeConfig } from '../../../schemas/destinations/snowflake.ts';
import { createSnowflakeDestination } from '../../../connectors/snowflake/index.ts';
import { connectSnowflake } from '../../../connectors/snowflake/snowflake-client.ts';
import { connectionOptions, snowflakeLocation } from '../../../connectors/snowflake/snowflake-config.ts';
import { decodeRow } from '../../../connectors/snowflake/snowflake-types.ts';
import { ident, schemaName, selectAllSql } from '../../../connectors/snowflake/snowflake-sql.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { kindsTable } from '../../conformance/fixtures.ts';
import { closeLiveDestinations, exerciseLiveDestination, liveDestinations } from '../../support/live-destination.ts';
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
  // Quoted: used exactly as written, mixed case and all.
  schema: `"aivis_Live_${randomBytes(4).toString('hex')}"`,
  role: env('ROLE'),
  access_url: env('ACCESS_URL'), // private link; unset for the account's public URL
};

const destinations = liveDestinations((run) => createSnowflakeDestination(config, { logger: silentLogger, run }));
const { run } = destinations;
const admin = await connectSnowflake(connectionOptions(config), 'aivis-test');
try {
  await exerciseLiveDestination(destinations, {
    async readKinds() {
      const rows = await admin.execute(
        `${selectAllSql(snowflakeLocation(config), kindsTable)} ORDER BY ${ident('id')}`,
      );
      return rows.map((row) => {
        const decoded = decodeRow(kindsTable, row);
        return { ...decoded, id: decoded.id, i: String(decoded.i), j: JSON.parse(String(decoded.j)) as unknown };
      });
    },
    // The tags of the run's statements and how many of each were MERGEs, as QUERY_HISTORY shows them.
    async recorded() {
      const rows = await admin.execute(
        'SELECT query_tag, query_text FROM TABLE(INFORMATION_SCHEMA.QUERY_HISTORY(RESULT_LIMIT => 10000)) WHERE query_tag LIKE ?',
        [`aivis:%:${run.runId}`],
      );
      const merges = new Map<string, number>();
      for (const row of rows) {
        const tag = String(row.QUERY_TAG);
        merges.set(tag, (merges.get(tag) ?? 0) + (/^\s*MERGE\b/i.test(String(row.QUERY_TEXT)) ? 1 : 0));
      }
      return [...merges].sort(([a], [b]) => (a < b ? -1 : 1)).map(([tag, n]) => ({ tag, merges: n }));
    },
    async probe() {
      const [row] = await admin.execute(PROBE_SQL, [String(PROBE_FLOAT), PROBE_JSON]);
      return { float: row?.F, variant: row?.V };
    },
  });
} finally {
  await closeLiveDestinations(destinations);
  await admin.execute(`DROP SCHEMA IF EXISTS ${schemaName(snowflakeLocation(config))} CASCADE`).catch(() => undefined);
  await admin.close();
}
