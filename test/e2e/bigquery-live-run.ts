/**
 * The live BigQuery check, run by `bigquery-live.test.ts` as a child process WITHOUT the
 * loopback guard (it is the one test meant to leave the machine, and only when asked to).
 * On a fresh dataset: check, tables, a flush with an in-batch duplicate and an int64 beyond
 * 2^53, state, the lock; then drops the dataset. Prints one JSON line of what it saw.
 */
import { randomBytes } from 'node:crypto';
import { BigQuery } from '@google-cloud/bigquery';
import { createBigqueryDestination } from '../../connectors/bigquery/index.ts';
import { LockHeldError } from '../../src/errors.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable, owner, stateEntry } from '../conformance/fixtures.ts';

const project = process.env.AIVIS_TEST_BIGQUERY_PROJECT!;
const location = process.env.AIVIS_TEST_BIGQUERY_LOCATION ?? 'US';
const keyFile = process.env.AIVIS_TEST_BIGQUERY_KEY_FILE;
const dataset = `aivis_live_${randomBytes(4).toString('hex')}`;
const config = { type: 'bigquery' as const, project, dataset, location, ...(keyFile ? { key_file: keyFile } : {}) };

const destination = createBigqueryDestination(config, { logger: silentLogger });
const other = createBigqueryDestination(config, { logger: silentLogger });
const admin = new BigQuery({ projectId: project, location, ...(keyFile ? { keyFilename: keyFile } : {}) });
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
    flushOf(kindsTable, [kindsRow('r1', { i: 1 }), kindsRow('r1', { i: 9007199254740993n, j: '{"a":[1,2]}', t: '2026-01-02T03:04:05.123456Z' })], [stateEntry('mentions', 'web_1', 'f1')]),
  );
  const [rows] = await admin.query({ query: `SELECT id, CAST(i AS STRING) AS i, TO_JSON_STRING(j) AS j, FORMAT_TIMESTAMP('%FT%H:%M:%E6SZ', t) AS t FROM \`${project}.${dataset}.${kindsTable.name}\``, location });
  const state = await destination.readState();
  await lock.release();
  process.stdout.write(JSON.stringify({ refused, result, rows, state }) + '\n');
} finally {
  await destination.close();
  await other.close();
  await admin.dataset(dataset).delete({ force: true }).catch(() => undefined);
}
