/**
 * End to end: sandbox -> `runSync` -> BigQuery connector -> real `@google-cloud/bigquery`
 * client -> stand-in. The warehouse must hold exactly the sandbox's truth after an initial
 * sync, after the data clock moves on, and after a run killed (SIGKILL, in a child process)
 * between a table's MERGE and the state of that flush, then resumed once its lease ran out.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockHeldError } from '../../../src/errors.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { startBigqueryStandIn, type BigqueryStandIn } from '../../stand-ins/bigquery/bigquery-stand-in.ts';
import { MINIMUM_PER_TABLE } from '../../stand-ins/bigquery/stand-in-billing.ts';
import { bigqueryJson } from '../../stand-ins/bigquery/stand-in-json.ts';
import { syncOnce, type SyncTarget } from './bigquery-sync-run.ts';

let sandbox: Sandbox;
let standIn: BigqueryStandIn;
let target: SyncTarget;

beforeAll(async () => {
  // Edge values (counts up to 2^53 - 1, nulls, odd text) must reach BigQuery exactly.
  sandbox = await startSandbox({ requestsPerMinute: 0, websites: 5, seed: 7, variants: ['edge_values'] });
  standIn = await startBigqueryStandIn();
  target = {
    sandboxUrl: sandbox.baseUrl,
    apiKey: sandbox.apiKey,
    bigqueryUrl: standIn.url,
    project: standIn.projectId,
    dataset: 'aivis_e2e',
  };
});
afterAll(async () => {
  await sandbox?.close();
  await standIn?.close();
});

type Raw = Record<string, unknown>;

const ref = (table: string) => `\`${standIn.projectId}.${target.dataset}.${table}\``;

/**
 * `_raw` of every row of `table` as the warehouse returns it, grouped by website, each group
 * sorted (duplicates stay visible).
 */
async function rawsByWebsite(table: string, websiteColumn = 'website_id'): Promise<Map<string, string[]>> {
  return groupRaws(`SELECT ${websiteColumn} AS w, _raw AS r FROM ${ref(table)}`);
}

/** Breakdown rows of each website's latest analysis (rows of older analyses stay in the table by design). */
async function latestBreakdown(table: string): Promise<Map<string, string[]>> {
  return groupRaws(
    `SELECT b.website_id AS w, b._raw AS r FROM ${ref(table)} AS b JOIN ${ref('analytics_latest')} AS l ` +
      `ON b.website_id = l.website_id AND b.analysis_id = COALESCE(l.analysis_id, '')`,
  );
}

async function groupRaws(sql: string): Promise<Map<string, string[]>> {
  const { rows } = await standIn.engine.query(sql);
  const out = new Map<string, string[]>();
  for (const row of rows) {
    const [w, r] = row.f.map((c) => c.v) as [string, string];
    out.set(w, [...(out.get(w) ?? []), r]);
  }
  for (const list of out.values()) list.sort();
  return out;
}

/**
 * What BigQuery returns for a record the API served: aivis stores the record as compact JSON
 * and BigQuery's JSON type writes the value back its own way (docs/destinations/bigquery.md#types, "What `_raw` keeps").
 */
const asBigqueryReturnsIt = (records: Iterable<unknown>) =>
  [...records].map((r) => bigqueryJson(JSON.stringify(r), 'round')).sort();

async function expectTruth(): Promise<void> {
  const websites = sandbox.truth.websites();
  const ids = websites.map((w) => w.id as string);
  expect(await rawsByWebsite('websites', 'id')).toEqual(
    new Map(websites.map((w) => [w.id as string, asBigqueryReturnsIt([w])])),
  );

  const latest = await rawsByWebsite('analytics_latest');
  const providers = await latestBreakdown('analytics_providers');
  const competitors = await latestBreakdown('analytics_competitors');
  const history = await rawsByWebsite('analytics_history');
  const mentions = await rawsByWebsite('mentions');
  const citations = await rawsByWebsite('citations');
  for (const id of ids) {
    const snapshot = sandbox.truth.snapshot(id, ['providers', 'competitors']) as {
      data: { providers?: Raw[]; competitors?: Raw[] };
    } | null;
    // The latest snapshot's `_raw` is the whole response, whose `meta` carries a request id the truth has not.
    expect(
      latest.get(id)?.map((r) => (JSON.parse(r) as { data: unknown }).data),
      id,
    ).toEqual(snapshot ? [snapshot.data] : undefined);
    expect(providers.get(id) ?? [], id).toEqual(asBigqueryReturnsIt(snapshot?.data.providers ?? []));
    expect(competitors.get(id) ?? [], id).toEqual(asBigqueryReturnsIt(snapshot?.data.competitors ?? []));
    expect(history.get(id) ?? [], id).toEqual(asBigqueryReturnsIt(sandbox.truth.history(id)));
    expect(mentions.get(id) ?? [], id).toEqual(asBigqueryReturnsIt(sandbox.truth.mentions(id)));
    expect(citations.get(id) ?? [], id).toEqual(asBigqueryReturnsIt(sandbox.truth.citations(id)));
  }
  // Nothing outside the listing.
  for (const table of [latest, history, mentions, citations]) for (const id of table.keys()) expect(ids).toContain(id);
}

async function stateRows(): Promise<string[]> {
  const { rows } = await standIn.engine.query(
    `SELECT stream, scope, state FROM ${ref('_aivis_state')} ORDER BY stream, scope`,
  );
  return rows.map((row) => JSON.stringify(row.f.map((c) => c.v)));
}

/** Load jobs of flushes (the `_aivis_runs` start and end rows are committed outside the flush buffer). */
const isFlushLoad = (job: BigqueryStandIn['jobs'][number]) =>
  job.configuration.load !== undefined &&
  !job.configuration.load.destinationTable.tableId.startsWith('_aivis_stage__aivis_runs_');
const isMergeInto = (table: string) => (job: BigqueryStandIn['jobs'][number]) =>
  job.configuration.query?.query.startsWith(`MERGE INTO \`${standIn.projectId}.${target.dataset}.${table}\``) ===
    true && job.status.errorResult === undefined;

describe('sync sandbox -> BigQuery stand-in', () => {
  it('an initial sync holds the sandbox truth; the summary counts the warehouse jobs and bytes', async () => {
    const before = standIn.jobs.length;
    const summary = await syncOnce(target);
    expect(summary.status).toBe('succeeded');
    const jobs = standIn.jobs.slice(before);
    const loads = jobs.filter(isFlushLoad).length;
    // Tables partitioned by day: mentions, citations, analytics_history.
    const partitioned = jobs.filter((job) =>
      /^_aivis_stage_(mentions|citations|analytics_history)_/.test(
        job.configuration.load?.destinationTable.tableId ?? '',
      ),
    ).length;
    expect(partitioned).toBe(3);
    // Every flushed table costs one load job and one MERGE that reads target and staging; a
    // partitioned one also a query for its staged keys stored in other partitions. Every
    // table here is smaller than BigQuery's 10 MB minimum per table.
    expect(summary.counters.warehouseJobs).toBe(2 * loads + partitioned);
    expect(summary.counters.bytesProcessed).toBe((loads + partitioned) * 2 * MINIMUM_PER_TABLE);
    // Few, large flushes: the listing's, the run rows', and one for all the feeds.
    expect(summary.counters.flushes).toBeLessThanOrEqual(4);
    await expectTruth();
  });

  it('after the data clock advances, the next sync holds the new truth', async () => {
    sandbox.clock.advance({ days: 1 });
    const summary = await syncOnce(target);
    expect(summary.status).toBe('succeeded');
    await expectTruth();
  });

  it('a run killed between the MERGE of mentions and its state, resumed after its lease expired, ends at the truth', async () => {
    sandbox.clock.advance({ days: 1, hours: 6 });
    const stateBefore = await stateRows();
    const mentionsBefore = [...(await rawsByWebsite('mentions')).values()].flat().length;

    const child = spawn(
      process.execPath,
      [
        '--import',
        './test/setup/loopback-guard.ts',
        'test/connectors/bigquery/bigquery-sync-run.ts',
        JSON.stringify(target),
      ],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    standIn.onJobDone = (job) => {
      if (isMergeInto('mentions')(job)) child.kill('SIGKILL');
    };
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    standIn.onJobDone = undefined;
    expect({ code, signal, stderr }).toEqual({ code: null, signal: 'SIGKILL', stderr: '' });

    // The killed run's rows landed, its state did not: rows first, then state.
    expect([...(await rawsByWebsite('mentions')).values()].flat().length).toBeGreaterThan(mentionsBefore);
    expect(await stateRows()).toEqual(stateBefore);

    // Its lease still holds the dataset...
    const refused = syncOnce(target);
    await expect(refused).rejects.toBeInstanceOf(LockHeldError);
    await expect(refused).rejects.toThrow(`another aivis run holds the lock on schema "${target.dataset}": run `);
    await expect(refused).rejects.toThrow(` pid ${child.pid} since `);

    // ...until it runs out: the next run replays the lost flush (MERGE dedups) and goes on.
    const resumed = await syncOnce({ ...target, clockOffsetMs: 11 * 60_000 });
    expect(resumed.status).toBe('succeeded');
    await expectTruth();
    expect(await stateRows()).not.toEqual(stateBefore);
  });
});
