/**
 * Against real BigQuery, only when asked: `AIVIS_TEST_BIGQUERY_PROJECT` plus credentials
 * (`AIVIS_TEST_BIGQUERY_KEY_FILE`, `AIVIS_TEST_BIGQUERY_ACCESS_TOKEN`,
 * `GOOGLE_APPLICATION_CREDENTIALS`, or gcloud ADC). The work runs in a child process without
 * the loopback guard; every other test stays on loopback. The same script and expectations
 * run against the stand-in on every `npm test` (guarded), so the live check cannot rot unseen.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BigqueryStandIn, startBigqueryStandIn } from '../../stand-ins/bigquery/bigquery-stand-in.ts';
import { CONCURRENT_WORKSPACES, runLiveScript } from '../../support/live-destination.ts';
import { expectSharedLiveRun } from '../../support/live-expectations.ts';

const project = process.env.AIVIS_TEST_BIGQUERY_PROJECT;
const credentials =
  process.env.AIVIS_TEST_BIGQUERY_KEY_FILE ??
  process.env.AIVIS_TEST_BIGQUERY_ACCESS_TOKEN ??
  process.env.GOOGLE_APPLICATION_CREDENTIALS ??
  [
    path.join(
      process.env.CLOUDSDK_CONFIG ?? path.join(os.homedir(), '.config', 'gcloud'),
      'application_default_credentials.json',
    ),
  ].find(existsSync);
const missing = !project
  ? 'AIVIS_TEST_BIGQUERY_PROJECT is not set'
  : !credentials
    ? 'no BigQuery credentials (AIVIS_TEST_BIGQUERY_KEY_FILE, AIVIS_TEST_BIGQUERY_ACCESS_TOKEN, GOOGLE_APPLICATION_CREDENTIALS or gcloud ADC)'
    : undefined;

const WHAT = 'check, load, MERGE, state, lock, concurrent workspaces and job labels on a throwaway dataset';

describe('BigQuery live', () => {
  it.skipIf(missing !== undefined)(
    `${WHAT}${missing ? ` (skipped: ${missing})` : ''}`,
    { timeout: 300_000 },
    async () => expectLiveRun(await runLiveScript('test/connectors/bigquery/bigquery-live-run.ts')),
  );
});

describe('BigQuery live script against the stand-in', () => {
  let standIn: BigqueryStandIn;
  beforeAll(async () => {
    standIn = await startBigqueryStandIn();
  });
  afterAll(() => standIn?.close());

  it(WHAT, async () => {
    const env = {
      AIVIS_TEST_BIGQUERY_PROJECT: standIn.projectId,
      AIVIS_TEST_BIGQUERY_LOCATION: 'US',
      AIVIS_TEST_BIGQUERY_API_ENDPOINT: standIn.url,
      AIVIS_TEST_BIGQUERY_ACCESS_TOKEN: 'stand-in-token',
    };
    expectLiveRun(await runLiveScript('test/connectors/bigquery/bigquery-live-run.ts', { env }));
  });
});

/** What the live script must have seen, on BigQuery and on the stand-in alike. */
function expectLiveRun(seen: Record<string, unknown>): void {
  expectSharedLiveRun(seen);
  expect(seen.rows).toEqual([{ id: 'r1', i: '9007199254740993', j: '{"a":[1,2]}', t: '2026-01-02T03:04:05.123456Z' }]);
  // Every query job of the run, as BigQuery lists it, carries the run's labels and the default jobTimeoutMs.
  const runId = (seen.runId as string).toLowerCase();
  expect(seen.recorded).toEqual({
    queryJobs: expect.any(Number),
    labels: ['default', ...CONCURRENT_WORKSPACES].map((workspace) => ({
      aivis_command: 'sync',
      aivis_run_id: runId,
      aivis_workspace: workspace,
    })),
    jobTimeoutMs: ['600000'],
  });
  expect((seen.recorded as { queryJobs: number }).queryJobs).toBeGreaterThan(0);
}
