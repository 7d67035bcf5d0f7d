/**
 * The BigQuery connector under the faults BigQuery documents, through the real client against
 * the stand-in with them turned on: jobs that fail transiently, DML that loses to a
 * concurrent statement with no reruns left, uploads that fail on the wire, inserts whose
 * answer is lost, jobs that run for several polls or never end, results in pages. Each flush
 * must land every row exactly once, or fail saying why.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openBigqueryClient } from '../../../connectors/bigquery/bigquery-client.ts';
import { clientOptions } from '../../../connectors/bigquery/bigquery-config.ts';
import { createBigqueryDestination } from '../../../connectors/bigquery/index.ts';
import type { Destination, RunIdentity } from '../../../src/destination/destination.ts';
import { readState } from '../../../src/destination/queries/saved-state.ts';
import type { Logger } from '../../../src/log/logger.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';
import { ENGINE_TABLES, stateTable } from '../../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable, stateEntry } from '../../conformance/fixtures.ts';
import { startBigqueryStandIn, type BigqueryStandIn } from '../../stand-ins/bigquery/bigquery-stand-in.ts';
import { fakeAuthClient } from '../../stand-ins/bigquery/fake-auth.ts';

let standIn: BigqueryStandIn;
const opened: Destination[] = [];
let datasets = 0;
interface LogRecord {
  level: string;
  message: string;
  fields: Record<string, unknown> | undefined;
}
let logs: LogRecord[] = [];
const recording: Logger = Object.fromEntries(
  (['debug', 'info', 'warn', 'error'] as const).map((level) => [
    level,
    (message: string, fields?: Record<string, unknown>) => logs.push({ level, message, fields }),
  ]),
) as unknown as Logger;

beforeAll(async () => {
  standIn = await startBigqueryStandIn({ dmlReruns: 0 });
});
afterEach(async () => {
  standIn.faults = {};
  logs = [];
  for (const d of opened.splice(0)) await d.close();
});
afterAll(() => standIn?.close());

const RUN: RunIdentity = { runId: 'run_20261125T071500_ab12cd34', workspace: 'Acme EU', command: 'sync' };

async function destination(
  options: { dataset?: string; now?: () => Date; jobTimeoutSeconds?: number; run?: RunIdentity } = {},
): Promise<{ d: Destination; dataset: string }> {
  const dataset = options.dataset ?? `faults_${++datasets}`;
  const d = createBigqueryDestination(
    {
      type: 'bigquery',
      project: standIn.projectId,
      dataset,
      location: 'EU',
      api_endpoint: standIn.url,
      ...(options.jobTimeoutSeconds ? { job_timeout_seconds: options.jobTimeoutSeconds } : {}),
    },
    {
      logger: recording,
      authClient: fakeAuthClient(),
      run: options.run ?? RUN,
      sleep: async () => undefined,
      random: () => 0,
      ...(options.now ? { now: options.now } : {}),
    },
  );
  await d.open();
  opened.push(d);
  await d.ensureTables([...ENGINE_TABLES, kindsTable]);
  return { d, dataset };
}

const rowsOf = async (dataset: string) =>
  (await standIn.engine.query(`SELECT id, i FROM \`aivis-test.${dataset}.${kindsTable.name}\` ORDER BY id`)).rows.map(
    (r) => r.f.map((c) => c.v),
  );
const flush = (ids: readonly string[], scope = 'web_1', frontier = 'f') =>
  flushOf(
    kindsTable,
    ids.map((id, k) => kindsRow(id, { i: k })),
    [stateEntry('mentions', scope, frontier)],
  );
const retries = () => logs.filter((l) => l.message === 'BigQuery job failed with a transient error; retrying');
const merges = (dataset: string, table: string) =>
  standIn.jobs.filter((j) => j.configuration.query?.query.startsWith(`MERGE INTO \`aivis-test.${dataset}.${table}\``));

describe('BigQuery faults: failed jobs are retried with backoff, under a new job id', () => {
  it.each(['backendError', 'internalError', 'rateLimitExceeded', 'jobRateLimitExceeded'] as const)(
    'a MERGE that ends in %s is run again and the flush lands every row once',
    async (reason) => {
      const { d, dataset } = await destination();
      standIn.faults = { jobFailures: { every: 1, times: 1, reason } };
      await commitFlush(d, flush(['a', 'b', 'c']));
      expect(await rowsOf(dataset)).toEqual([
        ['a', '0'],
        ['b', '1'],
        ['c', '2'],
      ]);
      const tries = merges(dataset, kindsTable.name);
      expect(tries.map((j) => j.status.errorResult?.reason)).toEqual([reason, undefined]);
      // One id per attempt: the job's own, then the next.
      expect(tries.map((j) => j.jobReference.jobId.replace(/^.*_(\d+)_(\d+)$/, '$2'))).toEqual(['1', '2']);
      expect(retries()).toMatchObject([{ level: 'warn', fields: { reason, retry: 1, of: 5, delay_ms: 0 } }]);
    },
  );

  it("a MERGE that lost to a concurrent one (BigQuery's reruns used up) is retried, and both flushes land", async () => {
    const { d: first, dataset } = await destination();
    const { d: second } = await destination({ dataset });
    await commitFlush(first, flush(['a'], 'web_1', 'f0'));
    await commitFlush(first, flush(['b'], 'web_2', 'f0'));
    // Both state MERGEs update a stored row and run on snapshots taken before either commits;
    // the second to commit loses, and BigQuery (reruns 0 here) fails it.
    const isStateMerge = (j: { configuration: { query?: { query: string } } }) =>
      j.configuration.query?.query.startsWith(`MERGE INTO \`aivis-test.${dataset}._aivis_state\``) === true;
    const heldFirst = standIn.hold(isStateMerge);
    const one = commitFlush(first, flush(['a'], 'web_1', 'f1'));
    await heldFirst.reached;
    const heldSecond = standIn.hold(isStateMerge);
    const two = commitFlush(second, flush(['b'], 'web_2', 'f1'));
    await heldSecond.reached;
    const lost = standIn.conflict(() => true);
    heldFirst.release();
    await one;
    heldSecond.release();
    await two;
    expect((await lost).configuration.query?.query).toMatch(/^MERGE INTO `aivis-test\.faults_\d+\._aivis_state`/);
    const state = await standIn.engine.query(
      `SELECT scope, state FROM \`aivis-test.${dataset}.${stateTable.name}\` ORDER BY scope`,
    );
    expect(state.rows.map((r) => [r.f[0]!.v, JSON.parse(r.f[1]!.v as string).frontier])).toEqual([
      ['web_1', 'f1'],
      ['web_2', 'f1'],
    ]);
    expect(retries()).toMatchObject([{ fields: { reason: 'concurrent update' } }]);
  });

  it('gives up after 6 attempts and says why, naming the statement and the reason', async () => {
    const { d } = await destination();
    standIn.faults = { jobFailures: { every: 1, reason: 'backendError' } };
    await expect(commitFlush(d, flush(['a']))).rejects.toThrow(
      /^BigQuery query \(MERGE INTO `aivis-test\.faults_\d+\.conformance_kinds` AS T\) failed: Error encountered during execution\. Retrying may solve the problem\. \(backendError\)$/,
    );
    expect(retries()).toHaveLength(5);
  });

  it('does not retry an answer: a permission error fails at once', async () => {
    const { d } = await destination();
    standIn.deny('bigquery.tables.updateData');
    try {
      await expect(commitFlush(d, flush(['a']))).rejects.toThrow(/permission denied: bigquery\.tables\.updateData/);
    } finally {
      standIn.allowAll();
    }
    expect(retries()).toEqual([]);
  });
});

describe('BigQuery faults: uploads and inserts that fail on the wire', () => {
  it.each(['unavailable', 'reset', 'lostResponse'] as const)(
    'an upload that fails (%s) is retried; rows are loaded once',
    async (kind) => {
      const { d, dataset } = await destination();
      standIn.faults = { uploadFailures: { every: 1, times: 1, kind } };
      await commitFlush(d, flush(['a', 'b']));
      expect(await rowsOf(dataset)).toEqual([
        ['a', '0'],
        ['b', '1'],
      ]);
      expect(standIn.injected).toEqual({ [`upload:${kind}`]: 1 });
      expect(retries()).toHaveLength(1);
    },
  );

  it('a load job whose upload answer was lost is waited for by its id, its rows not sent again', async () => {
    const { d, dataset } = await destination();
    standIn.faults = { uploadFailures: { every: 1, times: 1, kind: 'lostResponse' } };
    await commitFlush(d, flush(['a', 'b']));
    expect(standIn.injected).toEqual({ 'upload:lostResponse': 1 });
    // One upload per load job the flush made: none was sent twice.
    const loads = standIn.jobs.filter((j) => j.configuration.load?.destinationTable.datasetId === dataset);
    expect(loads).toHaveLength(2);
    expect(standIn.uploads).toBe(loads.length);
    expect(await rowsOf(dataset)).toEqual([
      ['a', '0'],
      ['b', '1'],
    ]);
  });

  it('a job whose insert answer was lost is found by its id (409 duplicate), not run twice', async () => {
    const { d, dataset } = await destination();
    standIn.faults = { insertFailures: { every: 1, times: 1, kind: 'lostResponse' } };
    await commitFlush(d, flush(['a']));
    expect(standIn.injected).toEqual({ 'insert:lostResponse': 1 });
    expect(merges(dataset, kindsTable.name)).toHaveLength(1);
    expect(await rowsOf(dataset)).toEqual([['a', '0']]);
  });
});

describe('BigQuery faults: results read again', () => {
  it("counts a job's bytes once when a later page of its results failed and they were read again", async () => {
    const { d, dataset } = await destination();
    await commitFlush(d, flush(['a', 'b']));
    const client = await openBigqueryClient(
      clientOptions(
        { type: 'bigquery', project: standIn.projectId, dataset, location: 'EU', api_endpoint: standIn.url },
        fakeAuthClient(),
      ),
      dataset,
      { labels: {}, jobTimeoutMs: 600_000, now: () => new Date(), sleep: async () => undefined, random: () => 0 },
      recording,
    );
    standIn.faults = { pageRows: 1, pageFailures: { every: 1, times: 1, reason: 'jobRateLimitExceeded' } };
    const outcome = await client.query(`SELECT id FROM \`aivis-test.${dataset}.${kindsTable.name}\` ORDER BY id`);
    expect(outcome.rows).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(standIn.injected).toEqual({ jobRateLimitExceeded: 1 });
    expect(retries()).toMatchObject([{ fields: { reason: 'jobRateLimitExceeded' } }]);
    const job = standIn.jobs.at(-1)!;
    expect(Number(job.statistics.totalBytesProcessed)).toBeGreaterThan(0);
    expect(client.usage).toEqual({ jobs: 1, bytesProcessed: Number(job.statistics.totalBytesProcessed) });
  });
});

describe('BigQuery faults: jobs that take their time', () => {
  it('waits through RUNNING polls and reads every page of a paged result', async () => {
    const { d, dataset } = await destination();
    await commitFlush(
      d,
      flushOf(
        kindsTable,
        [],
        Array.from({ length: 7 }, (_, k) => stateEntry('mentions', `web_${k}`, 'f')),
      ),
    );
    standIn.faults = { runningPolls: 3, pageRows: 2 };
    expect((await readState(d, 'default')).map((s) => s.scope).sort()).toEqual(
      Array.from({ length: 7 }, (_, k) => `web_${k}`),
    );
    await commitFlush(d, flush(['a', 'b', 'c']));
    expect(await rowsOf(dataset)).toHaveLength(3);
  });

  it('stops waiting for a job a minute past job_timeout_seconds, cancels it and says so', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    // Every reading of the clock is ten seconds later: the job's polls take that long.
    const { d } = await destination({ jobTimeoutSeconds: 30, now: () => new Date((clock += 10_000)) });
    standIn.faults = { runningPolls: Number.POSITIVE_INFINITY };
    await expect(readState(d, 'default')).rejects.toThrow(
      /^BigQuery query \(SELECT .*\) failed: job aivis_run_20261125T071500_ab12cd34_[0-9a-f]{8}_\d+_1 did not finish within destination\.job_timeout_seconds \(30 s\) and was cancelled$/,
    );
    expect(standIn.jobs.at(-1)!.status).toMatchObject({ state: 'DONE', errorResult: { reason: 'stopped' } });
  });
});

describe('BigQuery jobs: labels, timeout, ids', () => {
  it('every query job carries the run labels and jobTimeoutMs; every job id names the run', async () => {
    const { d } = await destination({ jobTimeoutSeconds: 900 });
    const before = standIn.jobs.length;
    await commitFlush(d, flush(['a']));
    const jobs = standIn.jobs.slice(before);
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      expect(job.jobReference.jobId).toMatch(/^aivis_run_20261125T071500_ab12cd34_[0-9a-f]{8}_\d+_1$/);
      if (!job.configuration.query) continue;
      expect(job.configuration.labels).toEqual({
        aivis_run_id: 'run_20261125t071500_ab12cd34',
        aivis_workspace: 'acme_eu',
        aivis_command: 'sync',
      });
      expect(job.configuration.jobTimeoutMs).toBe('900000');
    }
  });
});
