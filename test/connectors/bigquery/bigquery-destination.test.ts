/**
 * What the BigQuery connector adds on top of the conformance suite, through the real client
 * against the stand-in: `check` naming the missing permission, job and byte counts for the
 * run summary, staging tables that expire, table layout, and the lease lock with a clock.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  credentialsAvoidMetadataServer,
  keyFileAuthClient,
} from '../../../connectors/bigquery/bigquery-credentials.ts';
import { leaseLockTable } from '../../../src/destination/lease-lock.ts';
import { targetField } from '../../../connectors/bigquery/bigquery-types.ts';
import { createBigqueryDestination } from '../../../connectors/bigquery/index.ts';
import type { Destination } from '../../../src/destination/destination.ts';
import { markAbandonedRuns } from '../../../src/destination/queries/abandoned-runs.ts';
import { markWebsitesRemoved } from '../../../src/destination/queries/active-websites.ts';
import { readRows } from '../../../src/destination/queries/read-rows.ts';
import { ConfigError, LockHeldError, MissingPrivilegesError } from '../../../src/errors.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { redact } from '../../../src/log/redact.ts';
import type { Row, TableSpec } from '../../../src/destination/table-spec.ts';
import { ENGINE_TABLES, citationsTable, mentionsTable, stateTable, websitesTable } from '../../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable, owner, stateEntry } from '../../conformance/fixtures.ts';
import { MINIMUM_PER_TABLE } from '../../stand-ins/bigquery/stand-in-billing.ts';
import { startBigqueryStandIn, type BigqueryStandIn } from '../../stand-ins/bigquery/bigquery-stand-in.ts';
import { fakeAuthClient } from '../../stand-ins/bigquery/fake-auth.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';

let standIn: BigqueryStandIn;
const opened: Destination[] = [];
let datasets = 0;

beforeAll(async () => {
  standIn = await startBigqueryStandIn();
});
afterEach(async () => {
  standIn.allowAll();
  vi.useRealTimers();
  for (const d of opened.splice(0)) await d.close();
});
afterAll(() => standIn?.close());

async function destination(
  options: { dataset?: string; now?: () => Date } = {},
): Promise<{ d: Destination; dataset: string }> {
  const dataset = options.dataset ?? `bq_${++datasets}`;
  const d = createBigqueryDestination(
    { type: 'bigquery', project: standIn.projectId, dataset, location: 'EU', api_endpoint: standIn.url },
    { logger: silentLogger, authClient: fakeAuthClient(), ...(options.now ? { now: options.now } : {}) },
  );
  await d.open();
  opened.push(d);
  return { d, dataset };
}

const tablesOf = (dataset: string) =>
  [...standIn.engine.tables.keys()].filter((k) => k.startsWith(`${dataset}.`)).map((k) => k.slice(dataset.length + 1));

describe('BigQuery destination: check', () => {
  it('passes on a writable dataset, creating it in the configured location, and leaves no probe table', async () => {
    const { d, dataset } = await destination();
    await d.check({ tables: [], views: [] });
    expect(standIn.engine.datasets.get(dataset)).toEqual({ location: 'EU' });
    expect(tablesOf(dataset)).toEqual([]);
  });

  it('refuses a dataset in another location than the configured one', async () => {
    await standIn.engine.createDataset('in_us', 'US');
    const { d } = await destination({ dataset: 'in_us' });
    await expect(d.check({ tables: [], views: [] })).rejects.toThrow(
      'BigQuery dataset aivis-test:in_us is in location US, but destination.location is EU: set location: US',
    );
  });

  it('names the missing table permission and the role that grants it', async () => {
    const { d, dataset } = await destination();
    standIn.deny('bigquery.tables.create');
    const refused = d.check({ tables: [], views: [] });
    await expect(refused).rejects.toBeInstanceOf(MissingPrivilegesError);
    await expect(refused).rejects.toMatchObject({
      summary: `the BigQuery identity lacks permissions that sync uses in dataset aivis-test:${dataset}; grant it (on the dataset, or on the project where named)`,
      fixes: [`bigquery.tables.create on dataset ${dataset}: grant roles/bigquery.dataEditor`],
    });
  });

  it('names the missing job permission on the project once', async () => {
    const { d } = await destination();
    standIn.deny('bigquery.jobs.create');
    await expect(d.check({ tables: [], views: [] })).rejects.toMatchObject({
      fixes: ['bigquery.jobs.create on project aivis-test: grant roles/bigquery.jobUser on the project'],
    });
  });

  it('lists every permission its scratch table is refused at once: a column added, rows read, the table dropped', async () => {
    const { d, dataset } = await destination();
    for (const permission of ['bigquery.tables.update', 'bigquery.tables.getData', 'bigquery.tables.delete'])
      standIn.deny(permission);
    await expect(d.check({ tables: [], views: [] })).rejects.toMatchObject({
      fixes: [
        `bigquery.tables.update on dataset ${dataset}: grant roles/bigquery.dataEditor`,
        `bigquery.tables.getData on dataset ${dataset}: grant roles/bigquery.dataEditor`,
        `bigquery.tables.delete on dataset ${dataset}: grant roles/bigquery.dataEditor`,
      ],
    });
    standIn.allowAll();
    // The scratch table it could not drop expires within the hour; once granted, check passes.
    await d.check({ tables: [], views: [] });
  });

  it('names the tables that exist as those schema evolution may not alter when adding a column is refused', async () => {
    const { d, dataset } = await destination();
    await d.ensureTables([websitesTable]);
    standIn.deny('bigquery.tables.update');
    await expect(d.check({ tables: [websitesTable, stateTable], views: [] })).rejects.toMatchObject({
      fixes: [`bigquery.tables.update on dataset ${dataset}: grant roles/bigquery.dataEditor`],
      unalterable: ['websites'],
    });
  });
});

describe('BigQuery destination: loading', () => {
  it('one load job and one MERGE per table per flush, state last; reports jobs and bytes; no streaming inserts', async () => {
    const { d, dataset } = await destination();
    await d.ensureTables([...ENGINE_TABLES, kindsTable]);
    const before = standIn.jobs.length;
    const result = await commitFlush(
      d,
      flushOf(
        kindsTable,
        [kindsRow('r1', { i: 1 }), kindsRow('r1', { i: 2 }), kindsRow('r2')],
        [stateEntry('mentions', 'web_1', 'f1')],
      ),
    );
    const jobs = standIn.jobs
      .slice(before)
      .map((j) =>
        j.configuration.load
          ? `load ${j.configuration.load.destinationTable.tableId.replace(/_[0-9a-f]{32}$/, '')}`
          : j.configuration.query!.query.split('\n')[0]!.replace(/_[0-9a-f]{32}/, ''),
      );
    expect(jobs).toEqual([
      `load _aivis_stage_${kindsTable.name}`,
      `MERGE INTO \`aivis-test.${dataset}.${kindsTable.name}\` AS T`,
      'load _aivis_stage__aivis_state',
      `MERGE INTO \`aivis-test.${dataset}._aivis_state\` AS T`,
    ]);
    // Each MERGE reads the target and the staging table: the stand-in bills 10 MiB per table.
    expect(result).toEqual({ rowsWritten: { [kindsTable.name]: 2 }, jobs: 4, bytesProcessed: 4 * MINIMUM_PER_TABLE });
    expect(tablesOf(dataset).filter((t) => t.startsWith('_aivis_stage_'))).toEqual([]);
  });

  it('JSON comes back as BigQuery writes its JSON type: members by key, integers exact to 2^64, other numbers as FLOAT64', async () => {
    const { d, dataset } = await destination();
    await d.ensureTables([kindsTable]);
    const written =
      '{"z":1,"a":{"y":[1.50,2e0,9007199254740993,-9223372036854775808]},"big":18446744073709551615,"huge":123456789012345678901,"tiny":1e-7,"s":"\\u00e9\\/","a":"second a"}';
    await commitFlush(d, flushOf(kindsTable, [kindsRow('r1', { j: written })]));
    const { rows } = await standIn.engine.query(`SELECT j FROM \`aivis-test.${dataset}.${kindsTable.name}\``);
    expect(rows).toEqual([
      {
        f: [
          {
            v: '{"a":{"y":[1.5,2.0,9007199254740993,-9223372036854775808]},"big":18446744073709551615,"huge":1.2345678901234568e+20,"s":"é/","tiny":1e-07,"z":1}',
          },
        ],
      },
    ]);
  });

  it('a staging table the run cannot drop expires on its own a day later', async () => {
    const now = new Date('2026-03-01T12:00:00Z');
    const { d, dataset } = await destination({ now: () => now });
    await d.ensureTables([kindsTable]);
    standIn.deny('bigquery.tables.delete');
    await commitFlush(d, flushOf(kindsTable, [kindsRow('r1')]));
    const leftovers = tablesOf(dataset).filter((t) => t.startsWith('_aivis_stage_'));
    expect(leftovers).toHaveLength(1);
    expect(standIn.engine.tables.get(`${dataset}.${leftovers[0]}`)?.expirationTime).toBe(
      String(now.getTime() + 24 * 3_600_000),
    );
  });

  it('creates evidence tables partitioned by day of observed_at and clustered by website', async () => {
    const { d, dataset } = await destination();
    await d.ensureTables([mentionsTable]);
    const table = standIn.engine.tables.get(`${dataset}.mentions`)!;
    expect(table.timePartitioning).toEqual({ type: 'DAY', field: 'observed_at' });
    expect(table.clustering).toEqual({ fields: ['website_id', 'analysis_id'] });
    expect(table.schema.fields.find((f) => f.name === 'mention_spans')).toEqual({
      name: 'mention_spans',
      type: 'JSON',
      mode: 'REQUIRED',
      description: mentionsTable.columns.find((c) => c.name === 'mention_spans')!.description,
    });
  });

  it('a changed description is one tables.patch, no job: the rows are not rewritten', async () => {
    const { d, dataset } = await destination();
    await d.ensureTables([kindsTable]);
    await commitFlush(d, flushOf(kindsTable, [kindsRow('r1')]));
    const jobs = standIn.jobs.length;
    const changed: TableSpec = {
      ...kindsTable,
      description: 'Described again.',
      columns: kindsTable.columns.map((c) => (c.name === 's' ? { ...c, description: 'S again.' } : c)),
    };
    await d.ensureTables([changed]);
    await d.ensureTables([changed]);
    expect(standIn.jobs.length).toBe(jobs);
    const table = standIn.engine.tables.get(`${dataset}.${kindsTable.name}`)!;
    expect(table.description).toBe('Described again.');
    expect(table.schema.fields.find((f) => f.name === 's')?.description).toBe('S again.');
    expect(await readRows(d, kindsTable)).toHaveLength(1);
  });
});

describe('BigQuery destination: MERGE into a table partitioned by day', () => {
  const mention = (id: string, observedAt: string, text = 'seen'): Row => ({
    id,
    website_id: 'web_1',
    analysis_id: 'ana_1',
    observed_at: observedAt,
    available_at: observedAt,
    provider: 'chatgpt',
    sentence_text: text,
    sentence_text_truncated: false,
    position_in_response: 1,
    sentiment: 50,
    mention_spans: '[]',
    _synced_at: observedAt,
    _run_id: 'run_1',
    _raw: `{"id":"${id}"}`,
  });
  const citation = (id: string, observedAt: string | null): Row => ({
    id,
    website_id: 'web_1',
    analysis_id: null,
    provider: null,
    observed_at: observedAt,
    available_at: null,
    _synced_at: '2026-03-01T00:00:00.000000Z',
    _run_id: 'run_1',
    _raw: `{"id":"${id}"}`,
  });
  const rowsOf = async (dataset: string, table: string) =>
    (
      await standIn.engine.query(
        `SELECT id, observed_at FROM \`aivis-test.${dataset}.${table}\` ORDER BY id, observed_at`,
      )
    ).rows.map((r) => r.f.map((c) => c.v));
  const micros = (iso: string) => String(BigInt(Date.parse(iso)) * 1000n);
  /** Ten days of 2025, 2 MB a day, written straight into the stand-in. */
  const addHistory = (dataset: string, firstDay: number) =>
    standIn.engine.query(
      `INSERT INTO \`aivis-test.${dataset}.mentions\` SELECT 'men_old_' || d || '_' || n, 'web_1', 'ana_0', TIMESTAMP '2025-01-01 12:00:00+00' + (d * INTERVAL 1 DAY), ` +
        `TIMESTAMP '2025-01-01 12:00:00+00', 'chatgpt', repeat('x', 2000000), false, 1, 50, '[]', TIMESTAMP '2025-01-01 12:00:00+00', 'run_0', '{}', NULL ` +
        `FROM range(${firstDay}, ${firstDay + 10}) AS days(d), range(1) AS rows(n)`,
    );

  it('reads only the partitions its rows fall in: a flush costs the same into a table ten times larger', async () => {
    const { d, dataset } = await destination();
    await d.ensureTables([mentionsTable]);
    await addHistory(dataset, 0);
    const small = await commitFlush(
      d,
      flushOf(mentionsTable, [
        mention('men_a', '2026-03-01T10:00:00.000000Z'),
        mention('men_b', '2026-03-01T11:00:00.000000Z'),
      ]),
    );
    for (let first = 10; first < 100; first += 10) await addHistory(dataset, first);
    const large = await commitFlush(
      d,
      flushOf(mentionsTable, [
        mention('men_c', '2026-03-02T10:00:00.000000Z'),
        mention('men_a', '2026-03-01T10:00:00.000000Z', 'seen again'),
      ]),
    );
    // The key query and the MERGE, each over the staging table and a few small partitions: BigQuery's minimum.
    expect(small.bytesProcessed).toBe(4 * MINIMUM_PER_TABLE);
    expect(large.bytesProcessed).toBe(small.bytesProcessed);
    expect(
      await rowsOf(dataset, 'mentions').then((rows) => rows.filter(([id]) => !(id as string).startsWith('men_old_'))),
    ).toEqual([
      ['men_a', micros('2026-03-01T10:00:00Z')],
      ['men_b', micros('2026-03-01T11:00:00Z')],
      ['men_c', micros('2026-03-02T10:00:00Z')],
    ]);
  });

  it('a staged row whose key is stored under another day is updated there, never inserted twice', async () => {
    const { d, dataset } = await destination();
    await d.ensureTables([mentionsTable]);
    await commitFlush(
      d,
      flushOf(mentionsTable, [
        mention('men_moved', '2026-01-05T10:00:00.000000Z'),
        mention('men_kept', '2026-01-05T11:00:00.000000Z'),
      ]),
    );
    // The API moved men_moved to another day: the flush's partitions no longer hold its row.
    await commitFlush(
      d,
      flushOf(mentionsTable, [
        mention('men_moved', '2026-03-01T09:00:00.000000Z', 'moved'),
        mention('men_new', '2026-03-01T10:00:00.000000Z'),
      ]),
    );
    expect(await rowsOf(dataset, 'mentions')).toEqual([
      ['men_kept', micros('2026-01-05T11:00:00Z')],
      ['men_moved', micros('2026-03-01T09:00:00Z')],
      ['men_new', micros('2026-03-01T10:00:00Z')],
    ]);
  });

  it('matches rows without a partition value (NULL observed_at) in the NULL partition, and keys moving in or out of it', async () => {
    const { d, dataset } = await destination();
    await d.ensureTables([citationsTable]);
    await commitFlush(
      d,
      flushOf(citationsTable, [
        citation('cit_null', null),
        citation('cit_dated', '2026-01-05T10:00:00.000000Z'),
        citation('cit_undated', '2026-01-06T10:00:00.000000Z'),
      ]),
    );
    await commitFlush(
      d,
      flushOf(citationsTable, [
        citation('cit_null', null),
        citation('cit_dated', null),
        citation('cit_undated', '2026-03-01T10:00:00.000000Z'),
      ]),
    );
    await commitFlush(d, flushOf(citationsTable, [citation('cit_null', '2026-03-02T10:00:00.000000Z')]));
    expect(await rowsOf(dataset, 'citations')).toEqual([
      ['cit_dated', null],
      ['cit_null', micros('2026-03-02T10:00:00Z')],
      ['cit_undated', micros('2026-03-01T10:00:00Z')],
    ]);
  });
});

describe('BigQuery destination: lease lock', () => {
  it("refuses a second run while the lease runs, hands it over once a crashed run's lease expired, and the old holder stops writing", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const t0 = Date.parse('2026-03-01T12:00:00Z');
    const minutes = (m: number) => () => new Date(t0 + m * 60_000);
    let crashedAt = 0;
    const { d: crashed, dataset } = await destination({ now: () => minutes(crashedAt)() });
    await crashed.ensureTables([kindsTable]);
    await crashed.acquireLock(owner('run-1', 1111));

    const { d: early } = await destination({ dataset, now: minutes(5) });
    const refusal = early.acquireLock(owner('run-2', 2222));
    await expect(refusal).rejects.toBeInstanceOf(LockHeldError);
    await expect(refusal).rejects.toThrow(
      `another aivis run holds the lock on schema "${dataset}": run run-1 on conformance-host pid 1111 since 2026-03-01T12:00:00.000Z (lease ends 2026-03-01T12:10:00.000000Z, 300 s from now, unless renewed)`,
    );

    const { d: late } = await destination({ dataset, now: minutes(11) });
    const lock = await late.acquireLock(owner('run-3', 3333));

    // The first run wakes up 11 minutes on: its renewal timer finds the lease gone, and it refuses to write.
    crashedAt = 11;
    vi.advanceTimersByTime(100_000);
    await expect(commitFlush(crashed, flushOf(kindsTable, [kindsRow('r1')]))).rejects.toThrow(
      `the BigQuery run lock of ${dataset} expired and was taken by another run; stopping before writing more`,
    );
    const written = await standIn.engine.query(
      `SELECT COUNT(*) AS n FROM \`aivis-test.${dataset}.${kindsTable.name}\``,
    );
    expect(written.rows).toEqual([{ f: [{ v: '0' }] }]);
    await lock.release();
  });

  it('a holder paused past its lease (no renewal ran) checks before writing rows or bookkeeping, and stops', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const t0 = Date.parse('2026-03-01T12:00:00Z');
    let pausedAt = 0;
    const { d: paused, dataset } = await destination({ now: () => new Date(t0 + pausedAt * 60_000) });
    await paused.ensureTables([kindsTable]);
    await paused.acquireLock(owner('run-1', 1111));
    const { d: next } = await destination({ dataset, now: () => new Date(t0 + 11 * 60_000) });
    const lock = await next.acquireLock(owner('run-2', 2222));
    // The process wakes 11 minutes later; its renewal timer has not fired yet.
    pausedAt = 11;
    const lost = `the BigQuery run lock of ${dataset} expired and was taken by another run; stopping before writing more`;
    await expect(commitFlush(paused, flushOf(kindsTable, [kindsRow('r1')]))).rejects.toThrow(lost);
    // The bookkeeping's writes check it too (its SQL role's change).
    await expect(markWebsitesRemoved(paused, ['web_1'], '2026-03-01T12:11:00Z')).rejects.toThrow(lost);
    await expect(markAbandonedRuns(paused, 'run-1', 'default')).rejects.toThrow(lost);
    await lock.release();
  });
});

describe('BigQuery destination: racing runs', () => {
  it('of two runs taking the lock at once, exactly one gets it', async () => {
    const { d: first, dataset } = await destination();
    const { d: second } = await destination({ dataset });
    const outcomes = await Promise.allSettled([
      first.acquireLock(owner('run-a', 1)),
      second.acquireLock(owner('run-b', 2)),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refusal = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refusal.reason).toBeInstanceOf(LockHeldError);
    await (
      outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<{ release(): Promise<void> }>
    ).value.release();
    const { rows } = await standIn.engine.query(`SELECT COUNT(*) FROM \`aivis-test.${dataset}._aivis_lock\``);
    expect(rows).toEqual([{ f: [{ v: '1' }] }]);
  });

  it('a lock table made by aivis 0.1, without its row or with the two rows its race could leave, gives the lock to one run at a time', async () => {
    const { d, dataset } = await destination();
    await d.ensureTables([]);
    // As 0.1 made it: through the tables API, empty, its row left to a separate INSERT.
    await standIn.engine.createTable(dataset, {
      tableReference: { projectId: standIn.projectId, datasetId: dataset, tableId: '_aivis_lock' },
      schema: { fields: leaseLockTable.columns.map(targetField) },
    });
    const lock = await d.acquireLock(owner('run-1', 1));
    // 0.1's racing INSERTs could leave an ended lease beside the live one.
    await standIn.engine.query(
      `INSERT INTO \`aivis-test.${dataset}._aivis_lock\` (name, run_id, host, pid, started_at, expires_at) VALUES ('sync', '', '', 0, '', TIMESTAMP '1970-01-01 00:00:00+00')`,
    );
    const { d: other } = await destination({ dataset });
    await expect(other.acquireLock(owner('run-2', 2))).rejects.toThrow(
      `another aivis run holds the lock on schema "${dataset}": run run-1 on conformance-host pid 1 since `,
    );
    await lock.release();
    const next = await other.acquireLock(owner('run-2', 2));
    const { rows } = await standIn.engine.query(`SELECT run_id FROM \`aivis-test.${dataset}._aivis_lock\``);
    expect(rows).toEqual([{ f: [{ v: 'run-2' }] }, { f: [{ v: 'run-2' }] }]);
    await next.release();
  });

  /** The statement that first writes the lock row (an INSERT does not conflict with anything in BigQuery). */
  const writesLockRow = (job: BigqueryStandIn['jobs'][number]) =>
    /^(INSERT INTO|CREATE TABLE IF NOT EXISTS) `aivis-test\.\w+\._aivis_lock`/.test(
      job.configuration.query?.query ?? '',
    );

  it('a first run whose lock-row write is overtaken by another first run is refused with exit 1, naming the winner', async () => {
    const { d: late, dataset } = await destination();
    const { d: early } = await destination({ dataset });
    // The late run's write of the lock row has run on its snapshot but not committed...
    const held = standIn.hold(writesLockRow);
    const lateLock = late.acquireLock(owner('run-late', 2)).then(
      (lock) => lock,
      (error: unknown) => error,
    );
    await held.reached;
    // ...while the early run creates the row and takes it.
    const earlyLock = await early.acquireLock(owner('run-early', 1));
    held.release();
    const refusal = await lateLock;
    expect(refusal).toBeInstanceOf(LockHeldError);
    expect((refusal as LockHeldError).exitCode).toBe(1);
    expect((refusal as Error).message).toMatch(
      new RegExp(
        `^another aivis run holds the lock on schema "${dataset}": run run-early on conformance-host pid 1 since 2026-03-01T12:00:00\\.000Z \\(lease ends `,
      ),
    );
    await earlyLock.release();
  });

  it('of two runs whose UPDATEs of the lock row conflict, the one BigQuery fails is refused with exit 1, naming the winner', async () => {
    const strict = await startBigqueryStandIn({ dmlReruns: 0 });
    const open = async (runId: string, pid: number) => {
      const d = createBigqueryDestination(
        { type: 'bigquery', project: strict.projectId, dataset: 'racing', location: 'US', api_endpoint: strict.url },
        { logger: silentLogger, authClient: fakeAuthClient() },
      );
      await d.open();
      opened.push(d);
      return () => d.acquireLock(owner(runId, pid));
    };
    try {
      const first = await open('run-first', 1);
      const second = await open('run-second', 2);
      await (await first()).release();
      const takesLock = (job: BigqueryStandIn['jobs'][number]) =>
        /^UPDATE `aivis-test\.racing\._aivis_lock`\nSET run_id/.test(job.configuration.query?.query ?? '');
      const held = strict.hold(takesLock);
      const firstLock = first();
      await held.reached;
      // Both UPDATEs find the lease ended; the second loses the conflict when the first commits.
      const lost = strict.conflict(takesLock);
      const secondLock = second().then(
        (lock) => lock,
        (error: unknown) => error,
      );
      await lost;
      held.release();
      const lock = await firstLock;
      const refusal = await secondLock;
      expect(refusal).toBeInstanceOf(LockHeldError);
      expect((refusal as LockHeldError).exitCode).toBe(1);
      expect((refusal as Error).message).toMatch(
        /^another aivis run holds the lock on schema "racing": run run-first on conformance-host pid 1 since /,
      );
      expect(
        strict.jobs.some(
          (job) =>
            job.status.errorResult?.message ===
            'Could not serialize access to table aivis-test:racing._aivis_lock due to concurrent update',
        ),
      ).toBe(true);
      await lock.release();
    } finally {
      for (const d of opened.splice(0)) await d.close();
      await strict.close();
    }
  });
});

describe('BigQuery destination: close', () => {
  it('ends a lease still held, so its renewals stop and the next run need not wait', async () => {
    const { d: first, dataset } = await destination();
    await first.acquireLock(owner('run-a', 1));
    await first.close();
    const { d: next } = await destination({ dataset });
    const lock = await next.acquireLock(owner('run-b', 2));
    await lock.release();
  });
});

/**
 * A fresh process: which Google modules are resolved before and after `open()`, and what
 * `METADATA_SERVER_DETECTION` ends up as, for the credentials in `env`.
 */
async function lazyLoadProbe(
  env: NodeJS.ProcessEnv,
): Promise<{ before: string[]; after: string[]; detection: string | null }> {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({ resolve(specifier, context, next) {
      if (specifier.startsWith('@google-cloud/') || specifier === 'google-auth-library') seen.add(specifier);
      return next(specifier, context);
    } });
    const { createDestination } = await import('./src/cli/destination-factory.ts');
    const { silentLogger } = await import('./src/log/logger.ts');
    const d = await createDestination({ type: 'bigquery', project: 'p', dataset: 'aivis', location: 'US' }, { logger: silentLogger });
    d.describeDdl([]);
    const before = [...seen].sort();
    await d.open();
    console.log(JSON.stringify({ before, after: [...seen].sort(), detection: process.env.METADATA_SERVER_DETECTION ?? null }));
  `;
  const { METADATA_SERVER_DETECTION: _ignored, GOOGLE_APPLICATION_CREDENTIALS: _alsoIgnored, ...base } = process.env;
  const child = spawn(
    process.execPath,
    ['--import', './test/setup/loopback-guard.ts', '--input-type=module', '-e', script],
    { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return JSON.parse(out) as { before: string[]; after: string[]; detection: string | null };
}

describe('BigQuery SDK loading', () => {
  it('loads the SDK only when the destination opens, and turns the metadata probe off when ADC names a file', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'aivis-gcloud-'));
    const withFile = await lazyLoadProbe({
      CLOUDSDK_CONFIG: empty,
      GOOGLE_APPLICATION_CREDENTIALS: path.join(empty, 'adc.json'),
    });
    expect(withFile.before).toEqual([]);
    expect(withFile.after).toEqual(expect.arrayContaining(['@google-cloud/bigquery', 'google-auth-library']));
    expect(withFile.detection).toBe('none');
    // Nothing on disk: ADC may be a GCE/GKE workload, which needs the metadata server.
    const onGke = await lazyLoadProbe({ CLOUDSDK_CONFIG: empty });
    expect(onGke.detection).toBeNull();
  });
});

describe('BigQuery credentials', () => {
  it('keeps google-auth-library off the metadata server unless ADC has nothing else to use', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'aivis-gcloud-'));
    const config = { type: 'bigquery' as const, project: 'p', dataset: 'aivis', location: 'US' };
    expect(
      credentialsAvoidMetadataServer({ ...config, key_file: '/secrets/sa.json' }, { CLOUDSDK_CONFIG: empty }, false),
    ).toBe(true);
    expect(
      credentialsAvoidMetadataServer(
        config,
        { CLOUDSDK_CONFIG: empty, GOOGLE_APPLICATION_CREDENTIALS: '/x.json' },
        false,
      ),
    ).toBe(true);
    expect(credentialsAvoidMetadataServer(config, { CLOUDSDK_CONFIG: empty }, true)).toBe(true);
    // Nothing on disk: on GCE/GKE the metadata server is how ADC finds the workload's identity.
    expect(credentialsAvoidMetadataServer(config, { CLOUDSDK_CONFIG: empty }, false)).toBe(false);
  });

  it('turns a service-account key_file into a JWT client without a console warning, and registers its private key as a secret', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-sa-'));
    const file = path.join(dir, 'sa.json');
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    await writeFile(
      file,
      JSON.stringify({
        type: 'service_account',
        client_email: 'aivis@p.iam.gserviceaccount.com',
        private_key: key,
        private_key_id: 'k1',
      }),
    );
    const warn = vi.spyOn(console, 'warn');
    const client = (await keyFileAuthClient(file)) as { email: string; scopes: string[] };
    expect({ email: client.email, scopes: client.scopes }).toEqual({
      email: 'aivis@p.iam.gserviceaccount.com',
      scopes: ['https://www.googleapis.com/auth/bigquery'],
    });
    expect(warn).not.toHaveBeenCalled();
    expect(redact(`oops ${key}`)).toBe('oops [REDACTED]');
  });

  it('names key_file and what is wrong with it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-sa-'));
    const user = path.join(dir, 'adc.json');
    await writeFile(user, JSON.stringify({ type: 'authorized_user', client_id: 'x', refresh_token: 'y' }));
    await expect(keyFileAuthClient(path.join(dir, 'missing.json'))).rejects.toThrow(
      new ConfigError(
        `destination.key_file ${path.join(dir, 'missing.json')}: cannot read a service-account key (no such file)`,
      ),
    );
    await expect(keyFileAuthClient(user)).rejects.toThrow(
      `destination.key_file ${user}: not a service-account key (type "authorized_user"); for other credentials leave key_file out and use Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS)`,
    );
  });
});
