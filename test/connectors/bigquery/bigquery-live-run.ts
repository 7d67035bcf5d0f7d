/**
 * The live BigQuery check, run by `bigquery-live.test.ts` as a child process WITHOUT the
 * loopback guard (it is the one test meant to leave the machine, and only when asked to).
 * On a fresh dataset: check, tables, a flush with an in-batch duplicate and an int64 beyond
 * 2^53, state, the lock, flushes of three workspaces at once (concurrent MERGEs into one
 * table, which BigQuery may fail and aivis then retries), and the labels, timeout and ids of
 * the run's jobs as BigQuery lists them; then drops the dataset. Prints one JSON line of what
 * it saw. With `AIVIS_TEST_BIGQUERY_API_ENDPOINT` and `_ACCESS_TOKEN` it runs against the
 * stand-in, as `npm test` does (guarded).
 */
import { randomBytes } from 'node:crypto';
import { BigQuery } from '@google-cloud/bigquery';
import { createBigqueryDestination } from '../../../connectors/bigquery/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { kindsTable } from '../../conformance/fixtures.ts';
import { accessTokenClient } from '../../stand-ins/bigquery/fake-auth.ts';
import { closeLiveDestinations, exerciseLiveDestination, liveDestinations } from '../../support/live-destination.ts';

const project = process.env.AIVIS_TEST_BIGQUERY_PROJECT!;
const location = process.env.AIVIS_TEST_BIGQUERY_LOCATION ?? 'US';
const keyFile = process.env.AIVIS_TEST_BIGQUERY_KEY_FILE;
const accessToken = process.env.AIVIS_TEST_BIGQUERY_ACCESS_TOKEN;
const apiEndpoint = process.env.AIVIS_TEST_BIGQUERY_API_ENDPOINT;
const authClient = accessToken ? accessTokenClient(accessToken) : undefined;
const dataset = `aivis_live_${randomBytes(4).toString('hex')}`;
const config = {
  type: 'bigquery' as const,
  project,
  dataset,
  location,
  ...(keyFile ? { key_file: keyFile } : {}),
  ...(apiEndpoint ? { api_endpoint: apiEndpoint } : {}),
};
// A minute's slack for this machine's clock against BigQuery's: the job ids pick the run's jobs out.
const listFrom = Date.now() - 60_000;

const destinations = liveDestinations((run) =>
  createBigqueryDestination(config, { logger: silentLogger, run, ...(authClient ? { authClient } : {}) }),
);
const { run } = destinations;
const admin = new BigQuery({
  projectId: project,
  location,
  ...(apiEndpoint ? { apiEndpoint } : {}),
  ...(authClient ? { authClient } : keyFile ? { keyFilename: keyFile } : {}),
});

/** The run's query jobs as `jobs.list` shows them: their distinct labels and timeouts, and how many. */
async function recordedJobs() {
  const [jobs] = await admin.getJobs({ minCreationTime: String(listFrom), projection: 'full', autoPaginate: true });
  const query = jobs.filter((job) => job.id?.startsWith(`aivis_${run.runId}_`) && job.metadata.configuration?.query);
  const labels = new Map<string, unknown>();
  for (const job of query) {
    const set: Record<string, string> = job.metadata.configuration?.labels ?? {};
    labels.set(JSON.stringify(Object.entries(set).sort()), set);
  }
  return {
    queryJobs: query.length,
    labels: [...labels.keys()].sort().map((key) => labels.get(key)),
    jobTimeoutMs: [...new Set(query.map((job) => job.metadata.configuration?.jobTimeoutMs ?? null))],
  };
}

try {
  await exerciseLiveDestination(destinations, {
    async readKinds() {
      const [rows] = await admin.query({
        query: `SELECT id, CAST(i AS STRING) AS i, TO_JSON_STRING(j) AS j, FORMAT_TIMESTAMP('%FT%H:%M:%E6SZ', t) AS t FROM \`${project}.${dataset}.${kindsTable.name}\` ORDER BY id`,
        location,
      });
      return rows as { id: unknown }[];
    },
    recorded: recordedJobs,
  });
} finally {
  await closeLiveDestinations(destinations);
  await admin
    .dataset(dataset)
    .delete({ force: true })
    .catch(() => undefined);
}
