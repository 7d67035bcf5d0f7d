/**
 * The live BigQuery check, run by `bigquery-live.test.ts` as a child process WITHOUT the
 * loopback guard (it is the one test meant to leave the machine, and only when asked to).
 * On a fresh dataset: check, tables, a flush with an in-batch duplicate and an int64 beyond
 * 2^53, state, the lock; then drops the dataset. Prints one JSON line of what it saw.
 */
import { randomBytes } from 'node:crypto';
import { BigQuery } from '@google-cloud/bigquery';
import { createBigqueryDestination } from '../../connectors/bigquery/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { kindsTable } from '../conformance/fixtures.ts';
import { exerciseLiveDestination } from '../support/live-destination.ts';

const project = process.env.AIVIS_TEST_BIGQUERY_PROJECT!;
const location = process.env.AIVIS_TEST_BIGQUERY_LOCATION ?? 'US';
const keyFile = process.env.AIVIS_TEST_BIGQUERY_KEY_FILE;
const dataset = `aivis_live_${randomBytes(4).toString('hex')}`;
const config = { type: 'bigquery' as const, project, dataset, location, ...(keyFile ? { key_file: keyFile } : {}) };

const destination = createBigqueryDestination(config, { logger: silentLogger });
const other = createBigqueryDestination(config, { logger: silentLogger });
const admin = new BigQuery({ projectId: project, location, ...(keyFile ? { keyFilename: keyFile } : {}) });
try {
  await exerciseLiveDestination(destination, other, async () => {
    const [rows] = await admin.query({
      query: `SELECT id, CAST(i AS STRING) AS i, TO_JSON_STRING(j) AS j, FORMAT_TIMESTAMP('%FT%H:%M:%E6SZ', t) AS t FROM \`${project}.${dataset}.${kindsTable.name}\``,
      location,
    });
    return rows as unknown[];
  });
} finally {
  await destination.close();
  await other.close();
  await admin
    .dataset(dataset)
    .delete({ force: true })
    .catch(() => undefined);
}
