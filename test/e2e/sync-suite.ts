/**
 * The end-to-end sync suite every destination runs (drizzle style): the real sandbox over
 * loopback -> the real API client -> the sync engine -> a real destination, compared row for
 * row with the sandbox's truth. Each destination's file gives a target and calls
 * `runSyncSuite`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchemaOf } from '../../connectors/registry.ts';
import type { AivisConfig } from '../../schemas/config.ts';
import { ApiClient } from '../../src/client/api-client.ts';
import type { Destination } from '../../src/destination/destination.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startSandbox, type Sandbox, type SandboxOptions, type SandboxVariant } from '../../src/sandbox/index.ts';
import { DestinationStateStore } from '../../src/state/destination-state-store.ts';
import { SYNC_MODE } from '../../src/run/run-mode.ts';
import type { RunSyncOptions } from '../../src/sync/run-sync-options.ts';
import { runSync, syncTables, type RunSummary } from '../../src/sync/run-sync.ts';
import {
  analyticsCompetitorsTable,
  analyticsHistoryCurrentView,
  analyticsHistoryTable,
  analyticsLatestTable,
  analyticsProvidersTable,
  analyticsCompetitorsCurrentView,
  analyticsCurrentView,
  analyticsProvidersCurrentView,
  citationsCurrentView,
  citationsTable,
  freshnessCurrentView,
  mentionsCurrentView,
  mentionsTable,
  rejectedTable,
  VIEWS,
  runsTable,
  stateTable,
  websitesCurrentView,
  websitesTable,
} from '../../src/tables/index.ts';
import type { ViewSpec } from '../../src/destination/view-spec.ts';
import { descriptionsOf, staleDescriptions, type StoredComment } from '../../src/destination/descriptions.ts';
import { STREAM_TABLES } from '../../src/streams/registry.ts';
import { uniqueSchema } from '../conformance/harness.ts';
import type { LogicalRow } from '../conformance/normalize.ts';
import { comparable, expectedTables } from './expected-rows.ts';
import { readStatus } from '../../src/trust/read-status.ts';
import { changeSettings } from '../../src/plan/change-settings.ts';
import { microsecondTimestamp } from '../../src/destination/timestamp-micros.ts';

export interface SyncTarget {
  readonly name: string;
  /** A destination on a fresh, empty schema called `schema` (not opened). */
  create(schema: string): Promise<Destination>;
  /** All rows of `table` in logical form (test/conformance/normalize.ts). */
  readRows(destination: Destination, schema: string, table: TableSpec): Promise<LogicalRow[]>;
  /** Every comment (description) the warehouse's catalog holds for the schema; suites without it skip the descriptions test. */
  comments?(schema: string): Promise<StoredComment[]>;
  cleanup?(schema: string): Promise<void>;
}

/**
 * Small, fast sandbox data: 5 websites (one never measured), two pages of mentions each, with
 * the edge values a loader must keep exact (counts up to 2^53 - 1, nulls, odd text).
 */
export const SANDBOX: SandboxOptions = {
  seed: 7,
  variants: ['edge_values'],
  websites: 5,
  requestsPerMinute: 0,
  analysesPerWebsite: 4,
  mentionsPerAnalysis: 150,
  citationsPerAnalysis: 20,
};

export function testConfig(sandbox: Sandbox, overrides: Partial<AivisConfig> = {}): AivisConfig {
  return configSchemaOf().parse({
    source: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, requests_per_minute: 6000, max_retries: 8 },
    destination: { type: 'duckdb', path: ':memory:' },
    ...overrides,
  });
}

export interface SyncWorld {
  readonly sandbox: Sandbox;
  readonly destination: Destination;
  readonly schema: string;
  sync(options?: Partial<RunSyncOptions>): Promise<RunSummary & { requests: number }>;
  rows(table: TableSpec): Promise<LogicalRow[]>;
  /** Asserts every data table equals the sandbox's truth for the websites it lists now. */
  expectTruth(): Promise<void>;
}

/** Starts a sandbox and a destination; `close` tears both down. */
export async function openWorld(
  target: SyncTarget,
  sandboxOptions: SandboxOptions = SANDBOX,
): Promise<SyncWorld & { close(): Promise<void> }> {
  const sandbox = await startSandbox(sandboxOptions);
  const schema = uniqueSchema('e2e');
  const destination = await target.create(schema);
  await destination.open();
  const rows = (table: TableSpec) => target.readRows(destination, schema, table);
  const world: SyncWorld = {
    sandbox,
    destination,
    schema,
    async sync(options = {}) {
      const config = options.config ?? testConfig(sandbox);
      const client = new ApiClient({
        baseUrl: sandbox.baseUrl,
        apiKey: config.source?.api_key ?? '',
        requestsPerMinute: 6000,
        maxRetries: 8,
        random: () => 0,
      });
      try {
        const before = sandbox.stats.requests;
        const summary = await runSync({
          config,
          client,
          destination,
          stateStore: new DestinationStateStore(destination),
          logger: silentLogger,
          ...options,
        });
        return { ...summary, requests: sandbox.stats.requests - before };
      } finally {
        await client.close();
      }
    },
    rows,
    expectTruth: () => expectTruth(rows, sandbox),
  };
  return {
    ...world,
    async close() {
      await destination.close();
      await target.cleanup?.(schema);
      await sandbox.close();
    },
  };
}

/**
 * Asserts every data table's rows of `workspace` equal the sandbox's truth for the websites it
 * lists now (`rows` reads a table of the destination), and so do the views' rows.
 */
export async function expectTruth(
  rows: (table: TableSpec) => Promise<LogicalRow[]>,
  sandbox: Sandbox,
  workspace = 'default',
): Promise<void> {
  const expected = expectedTables(sandbox, workspace);
  const listed = new Set((sandbox.truth.websites() as { id: string }[]).map((w) => w.id));
  const ofWorkspace = async (table: TableSpec) => (await rows(table)).filter((r) => r._workspace === workspace);
  const latest = new Map((await ofWorkspace(analyticsLatestTable)).map((r) => [r.website_id, r.analysis_id ?? '']));
  for (const table of Object.values(STREAM_TABLES).flat()) {
    let actual = await ofWorkspace(table);
    if (table === websitesTable) actual = actual.filter((r) => r._removed_at === null);
    else actual = actual.filter((r) => listed.has(r.website_id as string));
    // Breakdown rows of earlier analyses stay; the truth is the latest snapshot's.
    if (table === analyticsProvidersTable || table === analyticsCompetitorsTable)
      actual = actual.filter((r) => latest.get(r.website_id) === r.analysis_id);
    expect(comparable(table, actual), `${table.name} of workspace ${workspace} equals the sandbox's truth`).toEqual(
      comparable(table, expected.get(table.name) ?? []),
    );
  }
  await expectViews(rows, sandbox, workspace);
}

/** A view read like a table: its columns, keyed as the table it shows. */
function viewTable(view: ViewSpec, keyedAs: TableSpec): TableSpec {
  return { ...keyedAs, name: view.name, description: view.description, columns: view.columns, insertOnly: [] };
}

/**
 * Asserts each view equals the truth: the listed websites, and the snapshot, providers and
 * competitors of each one's current analysis (what `expectedTables` holds for the base tables).
 */
async function expectViews(
  rows: (table: TableSpec) => Promise<LogicalRow[]>,
  sandbox: Sandbox,
  workspace: string,
): Promise<void> {
  const expected = expectedTables(sandbox, workspace);
  // A website whose listing record was quarantined has no websites row, so no view shows it.
  const listed = new Set((expected.get(websitesTable.name) ?? []).map((w) => w.id as string));
  const pairs: [ViewSpec, TableSpec][] = [
    [websitesCurrentView, websitesTable],
    [analyticsCurrentView, analyticsLatestTable],
    [analyticsProvidersCurrentView, analyticsProvidersTable],
    [analyticsCompetitorsCurrentView, analyticsCompetitorsTable],
    [analyticsHistoryCurrentView, analyticsHistoryTable],
    [mentionsCurrentView, mentionsTable],
    [citationsCurrentView, citationsTable],
  ];
  const domains = new Map((expected.get(websitesTable.name) ?? []).map((w) => [w.id, w.domain_url]));
  for (const [view, table] of pairs) {
    const actual = (await rows(viewTable(view, table))).filter((r) => r._workspace === workspace);
    expect(comparable(table, actual), `${view.name} of workspace ${workspace} equals the sandbox's truth`).toEqual(
      comparable(
        table,
        (expected.get(table.name) ?? []).filter((r) => listed.has((r.website_id ?? r.id) as string)),
      ),
    );
    // Each row names its website's address, the one the listing gave.
    const named = (r: LogicalRow) => [r.website_id ?? r.id, r.domain_url];
    expect(actual.map(named), `${view.name} carries each website's domain_url`).toEqual(
      actual.map((r) => [r.website_id ?? r.id, domains.get(r.website_id ?? r.id)]),
    );
    expect(actual.every((r) => typeof r.domain_url === 'string')).toBe(true);
  }
}

/**
 * Asserts `freshness_current` holds one row per stream of the default workspace with what
 * `aivis status` counts over every current website: `checked_through` as under `skip_unchanged`
 * with a `sweep_every` too long to bound it.
 */
async function expectFreshness(world: SyncWorld): Promise<void> {
  const streams = Object.keys(STREAM_TABLES);
  const status = await readStatus(world.destination, {
    workspace: 'default',
    streams,
    now: new Date(),
    maxStalenessSeconds: undefined,
    change: changeSettings({ skip_unchanged: true, sweep_every: '3650d' }),
  });
  const time = (value: unknown) => (value === null ? null : microsecondTimestamp(String(value)));
  const view: TableSpec = {
    name: freshnessCurrentView.name,
    description: freshnessCurrentView.description,
    primaryKey: ['_workspace', 'stream'],
    columns: freshnessCurrentView.columns,
  };
  const rows = (await world.rows(view)).filter((r) => r._workspace === 'default');
  const byStream = (r: { stream: unknown }) => String(r.stream);
  expect(
    rows
      .map((r) => [
        r.stream,
        Number(r.websites),
        Number(r.websites_complete),
        time(r.complete_through),
        time(r.checked_through),
      ])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    'freshness_current counts what aivis status counts',
  ).toEqual(
    [...status.report.streams]
      .sort((a, b) => byStream(a).localeCompare(byStream(b)))
      .map((s) => [s.stream, s.websites, s.websites_complete, time(s.complete_through), time(s.checked_through)]),
  );
  expect(rows.length).toBe(streams.length);
}

/** The suite's tests, by key, so a variant run can name the ones that prove something for it. */
export type SuiteTest =
  | 'incremental'
  | 'in_flight'
  | 'runs_and_state'
  | 'removal'
  | 'unmeasured'
  | 'mass_removal'
  | 'faults'
  | 'rejected_record'
  | 'rejected_website'
  | 'rejected_snapshot'
  | 'failing_website'
  | 'hostile_answers'
  | 'no_secrets'
  | 'hostile_pages'
  | 'views'
  | 'descriptions'
  | 'view_in_the_way';

/** A test of one variant's own behaviour, run in the suite's world (sync-variants.ts). */
export interface VariantCheck {
  readonly name: string;
  run(world: SyncWorld): Promise<void>;
}

export interface SuiteOptions {
  /** Sandbox variants to serve besides the suite's `edge_values` (default none). */
  readonly variants?: readonly SandboxVariant[];
  /** Only these tests; default every one. */
  readonly only?: readonly SuiteTest[];
  /** Tests of the variant's own behaviour, added to the suite's. */
  readonly checks?: readonly VariantCheck[];
}

export function runSyncSuite(target: SyncTarget, options: SuiteOptions = {}): void {
  const { variants = [], only, checks = [] } = options;
  const test = (key: SuiteTest, name: string, fn: () => Promise<void>) => {
    if (only === undefined || only.includes(key)) it(name, fn);
  };
  const title = variants.length > 0 ? ` (variants ${variants.join(', ')})` : '';
  describe(`end-to-end sync into ${target.name}${title}`, () => {
    let world: Awaited<ReturnType<typeof openWorld>>;
    beforeEach(async () => {
      world = await openWorld(target, { ...SANDBOX, variants: [...SANDBOX.variants!, ...variants] });
    });
    afterEach(async () => {
      await world.close();
    });

    for (const check of checks) it(check.name, () => check.run(world));

    test(
      'incremental',
      'first sync equals the truth; after a clock advance the second equals the new truth and reads only new and boundary rows',
      async () => {
        const first = await world.sync();
        expect(first.status).toBe('succeeded');
        expect(first.exitCode).toBe(0);
        await world.expectTruth();
        const mentionsBefore = (await world.rows(STREAM_TABLES.mentions[0]!)).length;

        world.sandbox.clock.advance({ days: 2 });
        const second = await world.sync();
        expect(second.status).toBe('succeeded');
        await world.expectTruth();
        const mentionsAfter = (await world.rows(STREAM_TABLES.mentions[0]!)).length;
        const read = second.counters.stream('mentions').rows;
        // Every new row was read; old rows only at the inclusive boundary, never the whole feed again.
        expect(read).toBeGreaterThanOrEqual(mentionsAfter - mentionsBefore);
        expect(read).toBeLessThan(mentionsBefore);
        // Requests: the served contract, one listing page, then per measured website 1 analytics + one page per feed (all fit in 500).
        const websites = world.sandbox.truth.websites() as { last_analysis_at: string | null }[];
        const measured = websites.filter((w) => w.last_analysis_at !== null).length;
        expect(second.requests).toBe(2 + measured + websites.length * 3);
      },
    );

    test(
      'in_flight',
      'stays equal to the truth across syncs every few hours of data time, while writes are in flight',
      async () => {
        // Each analysis commits its evidence over ~an hour, one provider's write slower than the
        // others, plus late evidence hours later: a client that trusted its own clock, or the
        // newest timestamp it saw, would lose some of these rows.
        for (let step = 0; step < 8; step++) {
          world.sandbox.clock.advance({ hours: 3 });
          const summary = await world.sync();
          expect(summary.status).toBe('succeeded');
          await world.expectTruth();
        }
      },
    );

    test(
      'runs_and_state',
      'records each run in _aivis_runs and saves one state row per stream and website',
      async () => {
        // A clock that moves one second per reading: rows carry when their page was read.
        let tick = Date.parse('2026-06-01T00:00:00Z');
        const summary = await world.sync({ now: () => new Date((tick += 1000)) });
        const syncedAt = new Set((await world.rows(STREAM_TABLES.mentions[0]!)).map((r) => r._synced_at));
        expect(syncedAt.size).toBeGreaterThan(1);
        for (const at of syncedAt) expect(String(at) > summary.startedAt).toBe(true);
        const runs = await world.rows(runsTable);
        expect(runs).toHaveLength(1);
        expect(runs[0]).toMatchObject({ id: summary.runId, command: 'sync', status: 'succeeded' });
        // docs/tables.md names the values a run writes.
        const described = (name: string) => runsTable.columns.find((c) => c.name === name)!.description;
        expect(described('status')).toContain(`\`${runs[0]!.status}\``);
        expect(described('command')).toContain(`\`${runs[0]!.command}\``);
        const counts = runs[0]!.counts as { streams: Record<string, { rows: number }> };
        expect(counts.streams.mentions!.rows).toBe(summary.counters.stream('mentions').rows);
        const state = await world.rows(stateTable);
        const websites = world.sandbox.truth.websites().length;
        expect(state).toHaveLength(websites * 3);
        for (const row of state) expect((row.state as { cursor: unknown }).cursor).toBeNull();
      },
    );

    test(
      'removal',
      'marks a website removed from the listing, stops syncing it, and clears the mark when it returns',
      async () => {
        await world.sync();
        const [gone] = world.sandbox.truth.websites() as { id: string }[];
        world.sandbox.removeWebsite(gone!.id);
        world.sandbox.clock.advance({ days: 1 });
        const second = await world.sync();
        expect(second.counters.removedWebsites).toBe(1);
        const marked = (await world.rows(websitesTable)).find((w) => w.id === gone!.id);
        expect(marked?._removed_at).not.toBeNull();
        expect(second.counters.websitesPlanned).toBe(world.sandbox.truth.websites().length);
        await world.expectTruth();
      },
    );

    test('unmeasured', 'syncs a never-analysed website without error and without an analytics row', async () => {
      const summary = await world.sync();
      const unmeasured = (world.sandbox.truth.websites() as { id: string; last_analysis_at: string | null }[]).filter(
        (w) => w.last_analysis_at === null,
      );
      expect(unmeasured.length).toBeGreaterThan(0);
      const latest = await world.rows(analyticsLatestTable);
      for (const w of unmeasured) expect(latest.find((r) => r.website_id === w.id)).toBeUndefined();
      expect(summary.exitCode).toBe(0);
    });

    test('mass_removal', 'refuses a listing that would remove every known website, writing nothing', async () => {
      await world.sync();
      for (const w of world.sandbox.truth.websites() as { id: string }[]) world.sandbox.removeWebsite(w.id);
      await expect(world.sync()).rejects.toThrow(
        /would mark 5 of 5 known websites as removed \(all of them\); nothing was written/,
      );
      // The guard holds whatever streams run: a moved key must not fill the evidence tables either.
      await expect(world.sync({ streams: ['mentions'] })).rejects.toThrow(
        /would mark 5 of 5 known websites as removed/,
      );
      expect((await world.rows(websitesTable)).filter((w) => w._removed_at !== null)).toEqual([]);
      const runs = await world.rows(runsTable);
      expect(runs.map((r) => r.status).sort()).toEqual(['failed', 'failed', 'succeeded']);
      const allowed = await world.sync({ mode: { ...SYNC_MODE, allowMassRemoval: true } });
      expect(allowed.counters.removedWebsites).toBe(5);
    });

    test('faults', 'finishes and equals the truth under 429 storms, 500/503, resets and truncated bodies', async () => {
      const { faults } = world.sandbox;
      faults.set({ kind: 'rate_limited', fraction: 0.15, retryAfter: 0 });
      faults.set({ kind: 'unavailable', fraction: 0.1 });
      faults.set({ kind: 'internal_error', fraction: 0.05, retryAfter: 0 });
      faults.set({ kind: 'reset', fraction: 0.05 });
      faults.set({ kind: 'truncated_body', fraction: 0.05 });
      const summary = await world.sync();
      faults.clear();
      expect(summary.status).toBe('succeeded');
      await world.expectTruth();
    });

    test(
      'rejected_record',
      'rejects a record that breaks the schema into _aivis_rejected with its reason, loads the rest, and exits 3',
      async () => {
        const [website] = world.sandbox.truth.websites() as { id: string }[];
        const id = website!.id;
        world.sandbox.faults.set({
          kind: 'malformed_record',
          routes: ['mentions'],
          websites: [id],
          count: 1,
          field: 'sentiment',
          value: 250,
        });
        const summary = await world.sync();
        expect(summary.status).toBe('partial');
        expect(summary.exitCode).toBe(3);
        expect(summary.counters.stream('mentions').rejected).toBe(1);
        const rejected = await world.rows(rejectedTable);
        expect(rejected).toHaveLength(1);
        const raw = rejected[0]!._raw as { id: string; sentiment: number };
        expect(rejected[0]).toMatchObject({
          stream: 'mentions',
          scope: id,
          error: 'sentiment: must be a number from 0 to 100 or null (got 250)',
          _run_id: summary.runId,
        });
        expect(raw.sentiment).toBe(250);
        const expectedIds = [...world.sandbox.truth.mentions(id)]
          .map((m) => m.id as string)
          .filter((m) => m !== raw.id);
        const loaded = (await world.rows(STREAM_TABLES.mentions[0]!))
          .filter((r) => r.website_id === id)
          .map((r) => r.id);
        expect(loaded.sort()).toEqual(expectedIds.sort());
        expect((await world.rows(runsTable))[0]).toMatchObject({ status: 'partial' });
      },
    );

    test(
      'rejected_website',
      'rejects a malformed website record but still syncs that website and never marks it removed',
      async () => {
        await world.sync();
        const [website] = world.sandbox.truth.websites() as { id: string }[];
        world.sandbox.clock.advance({ days: 1 });
        world.sandbox.faults.set({
          kind: 'malformed_record',
          routes: ['websites.list'],
          count: 1,
          field: 'country',
          value: 'Atlantis',
        });
        const summary = await world.sync();
        expect(summary.exitCode).toBe(3);
        expect(summary.counters.removedWebsites).toBe(0);
        const rejected = await world.rows(rejectedTable);
        expect(rejected.map((r) => [r.stream, r.scope, r.error])).toEqual([
          ['websites', '*', 'country: must be two uppercase letters such as US (got "Atlantis")'],
        ]);
        expect((rejected[0]!._raw as { id: string }).id).toBe(website!.id);
        const row = (await world.rows(websitesTable)).find((w) => w.id === website!.id);
        expect(row?._removed_at).toBeNull();
        // Its evidence still arrived: every data table other than websites equals the truth.
        const mentions = (await world.rows(STREAM_TABLES.mentions[0]!)).filter((m) => m.website_id === website!.id);
        expect(mentions).toHaveLength([...world.sandbox.truth.mentions(website!.id)].length);
      },
    );

    test('rejected_snapshot', 'records a malformed snapshot once, however often it is read again', async () => {
      const measured = (world.sandbox.truth.websites() as { id: string; last_analysis_at: string | null }[]).find(
        (w) => w.last_analysis_at !== null,
      )!;
      for (let run = 0; run < 2; run++) {
        world.sandbox.faults.set({
          kind: 'malformed_record',
          routes: ['analytics.latest'],
          websites: [measured.id],
          count: 1,
          field: 'metrics.visibility',
          value: 101,
        });
        expect((await world.sync()).exitCode).toBe(3);
      }
      const rejected = await world.rows(rejectedTable);
      expect(rejected.map((r) => [r.stream, r.scope, r.error])).toEqual([
        ['analytics', measured.id, 'metrics.visibility: must be a number from 0 to 100 or null (got 101)'],
      ]);
    });

    test(
      'failing_website',
      'reports a website whose requests keep failing, keeps its state still, and loads the others (exit 3)',
      async () => {
        const [failing] = world.sandbox.truth.websites() as { id: string }[];
        world.sandbox.faults.set({ kind: 'unavailable', routes: ['mentions'], websites: [failing!.id] });
        const summary = await world.sync();
        expect(summary.exitCode).toBe(3);
        expect(summary.counters.failedWebsites.map((f) => [f.websiteId, f.stream])).toEqual([
          [failing!.id, 'mentions'],
        ]);
        expect(summary.counters.failedWebsites[0]!.error).toBe(
          `API server error (503 temporarily_unavailable, request_id ${summary.counters.failedWebsites[0]!.error.match(/req_\d+/)![0]}): ` +
            `GET /public/v2/websites/${failing!.id}/mentions still failing after 8 retries: A required dependency is unavailable (injected fault); retry later; try again later`,
        );
        const state = await world.rows(stateTable);
        expect(state.filter((r) => r.stream === 'mentions').map((r) => r.scope)).not.toContain(failing!.id);
        // Its other streams went on: only the failed scan's state is missing.
        expect(state).toHaveLength(world.sandbox.truth.websites().length * 3 - 1);
        expect(summary.counters.websitesDone).toBe(world.sandbox.truth.websites().length);
        world.sandbox.faults.clear();
        expect((await world.sync()).exitCode).toBe(0);
        await world.expectTruth();
      },
    );

    test(
      'hostile_answers',
      "contains a 503 asking for an hour, an HTML page and a 204 to their website's stream at once (exit 3); the next run is whole",
      async () => {
        const measured = (world.sandbox.truth.websites() as { id: string; last_analysis_at: string | null }[]).filter(
          (w) => w.last_analysis_at !== null,
        );
        const [a, b, c] = measured.map((w) => w.id) as [string, string, string];
        const { faults } = world.sandbox;
        faults.set({ kind: 'unavailable', retryAfter: 3599, routes: ['mentions'], websites: [a] });
        faults.set({ kind: 'html_page', routes: ['citations'], websites: [b] });
        faults.set({ kind: 'no_content', routes: ['analytics.latest'], websites: [c] });
        const summary = await world.sync();
        expect(summary.exitCode).toBe(3);
        const failures = [...summary.counters.failedWebsites]
          .sort((x, y) => x.stream.localeCompare(y.stream))
          .map((f) => [
            f.websiteId,
            f.stream,
            f.error
              .replace(/req_\d+/, 'req_N')
              .replace(/\d{4}-\d\d-\d\dT[\d:]+Z/, 'TIME')
              .replace(/ (599|600) s left/, ' N s left'),
          ]);
        expect(failures).toEqual([
          [
            c,
            'analytics',
            `invalid response (204, request_id req_N): GET /public/v2/websites/${c}/analytics: the answer is 204 No Content, with no body, where every V2 answer is a JSON document`,
          ],
          [
            b,
            'citations',
            `invalid response (200, request_id req_N): GET /public/v2/websites/${b}/citations: the 200 response is an HTML page (text/html, 176 characters), not JSON: a proxy or captive portal? check that source.base_url is the API and that this machine reaches it without a login page`,
          ],
          [
            a,
            'mentions',
            `API server error (503 temporarily_unavailable, request_id req_N): GET /public/v2/websites/${a}/mentions: the API asked to wait 3599 s (Retry-After) before the next attempt, more than the N s left of this request's retry budget (source.retry_budget_seconds: 600); try again after TIME`,
          ],
        ]);
        faults.clear();
        expect((await world.sync()).exitCode).toBe(0);
        await world.expectTruth();
      },
    );

    test(
      'views',
      'the views equal the truth of the listed websites, their current analysis and evidence, and freshness_current what status counts, after a removal and a new analysis too',
      async () => {
        await world.sync();
        await world.expectTruth();
        await expectFreshness(world);
        const latestBefore = await world.rows(analyticsLatestTable);
        const [gone] = world.sandbox.truth.websites() as { id: string }[];
        world.sandbox.removeWebsite(gone!.id);
        world.sandbox.clock.advance({ days: 2 });
        await world.sync();
        await world.expectTruth();
        await expectFreshness(world);
        // A new analysis replaced some snapshots, and the base tables keep what the views leave out:
        // the removed website's snapshot and the breakdown of earlier analyses.
        const latestAfter = await world.rows(analyticsLatestTable);
        const moved = latestAfter.filter((r) =>
          latestBefore.some((b) => b.website_id === r.website_id && b.analysis_id !== r.analysis_id),
        );
        expect(moved.length).toBeGreaterThan(0);
        expect(latestAfter.some((r) => r.website_id === gone!.id)).toBe(true);
        const providers = await world.rows(analyticsProvidersTable);
        expect(new Set(providers.map((r) => r.analysis_id)).size).toBeGreaterThan(latestAfter.length);
      },
    );

    if (target.comments) {
      const comments = target.comments.bind(target);
      test(
        'descriptions',
        'every table, view and column carries its description; a changed one is a metadata update that keeps the rows',
        async () => {
          await world.sync();
          const tables = syncTables(testConfig(world.sandbox));
          // A view's own comment is its description and the fingerprint of its query.
          const viewColumns = descriptionsOf(VIEWS, true).filter((d) => d.column !== undefined);
          const wanted = [...descriptionsOf(tables, false), ...viewColumns];
          const stored = await comments(world.schema);
          expect(staleDescriptions(wanted, stored)).toEqual([]);
          for (const view of VIEWS) {
            const own = stored.find((c) => c.table_name.toLowerCase() === view.name && c.column_name === null);
            expect(own?.comment).toMatch(
              new RegExp(`^${escapeRegExp(view.description)} \\(definition [0-9a-f]{12}\\)$`),
            );
          }
          const before = await world.rows(websitesTable);
          const changed: TableSpec = {
            ...websitesTable,
            description: 'Changed.',
            columns: websitesTable.columns.map((c) =>
              c.name === 'country' ? { ...c, description: 'Changed too.' } : c,
            ),
          };
          await world.destination.ensureTables([changed]);
          const now = (await comments(world.schema)).filter((c) => c.table_name.toLowerCase() === 'websites');
          expect(now.find((c) => c.column_name === null)?.comment).toBe('Changed.');
          expect(now.find((c) => c.column_name?.toLowerCase() === 'country')?.comment).toBe('Changed too.');
          expect(await world.rows(websitesTable)).toEqual(before);
        },
      );
    }

    test(
      'view_in_the_way',
      "refuses (exit 2) to replace a user's table named like a view, and leaves it alone",
      async () => {
        const mine: TableSpec = {
          name: websitesCurrentView.name,
          description: "A user's own table.",
          primaryKey: ['id'],
          columns: [{ name: 'id', type: 'string', nullable: false, description: 'id' }],
        };
        await world.destination.ensureTables([mine]);
        await world.destination.commit([{ table: mine, rows: [{ id: 'mine' }] }]);
        const refused = world.sync();
        await expect(refused).rejects.toThrow(
          /websites_current.* is a table, so sync will not replace it with aivis's view websites_current: rename or drop your table, then run sync again/,
        );
        await expect(refused).rejects.toMatchObject({ exitCode: 2 });
        expect(await world.rows(mine)).toEqual([{ id: 'mine' }]);
      },
    );

    test(
      'hostile_pages',
      'refuses a page over its limit for its website alone, loads a page of long records in parts, stores no key echoed in \\u escapes (exit 3)',
      async () => {
        const measured = (world.sandbox.truth.websites() as { id: string; last_analysis_at: string | null }[])
          .filter((w) => w.last_analysis_at !== null)
          .map((w) => w.id);
        const [over, long, echo] = measured as [string, string, string];
        const { faults } = world.sandbox;
        faults.set({ kind: 'oversized_page', routes: ['mentions'], websites: [over] });
        // 500 records of 10,000 characters: several parts of a page, and several flushes on some destinations.
        faults.set({ kind: 'huge_records', routes: ['mentions'], websites: [long], count: 1, recordChars: 10_000 });
        faults.set({ kind: 'escaped_key', routes: ['mentions'], websites: [echo], count: 1 });
        const summary = await world.sync();
        expect(summary.exitCode).toBe(3);
        expect(summary.counters.failedWebsites.map((f) => [f.websiteId, f.stream])).toEqual([[over, 'mentions']]);
        expect(summary.counters.failedWebsites[0]!.error).toContain(
          `GET /public/v2/websites/${over}/mentions: the API sent 501 records in one page, more than the limit of 500 aivis asked for; the page is refused`,
        );
        expect(summary.counters.echoedKeys).toBe(2);
        const mentions = await world.rows(STREAM_TABLES.mentions[0]!);
        const of = (id: string) => mentions.filter((m) => m.website_id === id);
        expect(of(over)).toEqual([]);
        const lengths = of(long).map((m) => (m.sentence_text as string).length);
        expect(lengths.filter((n) => n === 10_000)).toHaveLength(500);
        expect(lengths).toHaveLength([...world.sandbox.truth.mentions(long)].length);
        const first = [...world.sandbox.truth.mentions(echo)][0]!.id;
        expect(of(echo).find((m) => m.id === first)!.sentence_text).toBe('the key is [REDACTED], again: [REDACTED]');
        for (const table of [...Object.values(STREAM_TABLES).flat(), runsTable, stateTable, rejectedTable])
          expect(
            JSON.stringify(await world.rows(table), (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
          ).not.toContain(world.sandbox.apiKey);

        faults.clear();
        expect((await world.sync()).exitCode).toBe(0);
        const next = await world.rows(STREAM_TABLES.mentions[0]!);
        expect(new Set(next.filter((m) => m.website_id === over).map((m) => m.id))).toEqual(
          new Set([...world.sandbox.truth.mentions(over)].map((m) => m.id)),
        );
      },
    );

    test('no_secrets', 'never writes the API key into any table', async () => {
      await world.sync();
      for (const table of [...Object.values(STREAM_TABLES).flat(), runsTable, stateTable, rejectedTable]) {
        expect(
          JSON.stringify(await world.rows(table), (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
        ).not.toContain(world.sandbox.apiKey);
      }
    });
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
