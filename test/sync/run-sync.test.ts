/**
 * The sync engine (`runSync`) as a whole, on the fake destination, reading the sandbox over
 * loopback with the real `ApiClient`: how a run contains a website's failure, falls back to
 * citations per analysis, marks a revoked website removed, survives a failed commit with its
 * state never ahead of its rows, and catches up after resuming a scan. The machine's clock is
 * injected (a fixed instant after the sandbox's data time); the sandbox's data clock is
 * pinned and advanced by hand.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { configSchemaOf } from '../../connectors/registry.ts';
import { ApiClient } from '../../src/client/api-client.ts';
import { readRows } from '../../src/destination/queries/read-rows.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { microsecondTimestamp } from '../../src/destination/timestamp-micros.ts';
import type { Logger } from '../../src/log/logger.ts';
import { type Sandbox, type SandboxVariant, startSandbox } from '../../src/sandbox/index.ts';
import { DestinationStateStore } from '../../src/state/destination-state-store.ts';
import type { StreamState } from '../../src/state/state-entry.ts';
import type { RunSyncOptions } from '../../src/sync/run-sync-options.ts';
import { runSync } from '../../src/sync/run-sync.ts';
import { citationsTable, mentionsTable, runsTable, stateTable, websitesTable } from '../../src/tables/index.ts';
import { comparable, expectedTables } from '../e2e/expected-rows.ts';
import { openFakeDestination } from '../support/fake-destination.ts';

/** This machine's clock for every run: after the sandbox's data time, so no bound is in the future. */
const NOW = new Date('2027-01-01T00:00:00.000Z');

interface Logged {
  readonly level: string;
  readonly message: string;
  readonly fields: Record<string, unknown> | undefined;
}

const opened: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** A sandbox of three measured websites with two pages of mentions each, a fake destination, and a run of the engine over both. */
async function engine(variants: SandboxVariant[] = []) {
  const sandbox = await startSandbox({
    seed: 5,
    websites: 3,
    requestsPerMinute: 0,
    analysesPerWebsite: 4,
    mentionsPerAnalysis: 150,
    citationsPerAnalysis: 5,
    variants,
  });
  opened.push(sandbox);
  // Flushes of 1,000 rows: a run here makes several commits, for the fault test to fail one.
  const destination = await openFakeDestination({ capabilities: { maxRowsPerFlush: 1000 } });
  const logged: Logged[] = [];
  const record =
    (level: string) =>
    (message: string, fields?: Record<string, unknown>): void =>
      void logged.push({ level, message, fields });
  const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  const config = configSchemaOf().parse({
    source: { base_url: sandbox.baseUrl, api_key: sandbox.apiKey, requests_per_minute: 6000 },
    destination: { type: 'duckdb', path: ':memory:' },
  });
  const sync = async (options: Partial<RunSyncOptions> = {}) => {
    const client = new ApiClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.apiKey,
      requestsPerMinute: 6000,
      random: () => 0,
    });
    try {
      return await runSync({
        config,
        client,
        destination,
        stateStore: new DestinationStateStore(destination),
        logger,
        now: () => NOW,
        concurrency: 1,
        ...options,
      });
    } finally {
      await client.close();
    }
  };
  const websites = (sandbox.truth.websites() as { id: string }[]).map((w) => w.id).sort();
  /** The rows of `table` loaded for `website`, comparable with the truth. */
  const loaded = async (table: TableSpec, website: string) =>
    comparable(
      table,
      (await readRows(destination, table)).filter((r) => r.website_id === website),
    );
  const truth = (table: TableSpec, website: string) =>
    comparable(
      table,
      (expectedTables(sandbox).get(table.name) ?? []).filter((r) => r.website_id === website),
    );
  /** The saved state of a stream's scope, as `_aivis_state` holds it (JSON text). */
  const stateOf = async (stream: string, scope: string): Promise<StreamState | undefined> => {
    const row = (await readRows(destination, stateTable)).find((r) => r.stream === stream && r.scope === scope);
    return row === undefined ? undefined : (JSON.parse(String(row.state)) as StreamState);
  };
  return { sandbox, destination, logged, sync, websites, loaded, truth, stateOf };
}

describe('runSync on the fake destination', () => {
  it('contains one website whose feed fails: the other websites and its other streams load, the run is partial (exit 3)', async () => {
    const { sandbox, sync, websites, loaded, truth, logged } = await engine();
    const [first, broken, last] = websites as [string, string, string];
    // A 404 on the feed that the website's own resource does not confirm: a failure, not a revocation.
    sandbox.faults.set({ kind: 'not_found', routes: ['mentions'], websites: [broken] });
    const summary = await sync();
    expect([summary.status, summary.exitCode]).toEqual(['partial', 3]);
    expect(summary.counters.failedWebsites).toEqual([
      { websiteId: broken, stream: 'mentions', error: expect.stringContaining('404') },
    ]);
    expect(summary.counters.revokedWebsites).toEqual([]);
    expect([summary.counters.websitesPlanned, summary.counters.websitesDone]).toEqual([3, 3]);
    for (const id of [first, last]) expect(await loaded(mentionsTable, id)).toEqual(truth(mentionsTable, id));
    expect(await loaded(mentionsTable, broken)).toEqual([]);
    // The stream after the failed one goes on for the same website.
    expect(await loaded(citationsTable, broken)).toEqual(truth(citationsTable, broken));
    expect(logged.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({ fields: expect.objectContaining({ website_id: broken, stream: 'mentions' }) }),
    ]);
  });

  it('reads citations one scan per analysis once the API asks for analysis_id, logs it once and counts it', async () => {
    const { sandbox, sync, websites, loaded, truth, logged } = await engine(['citations_require_analysis_id']);
    const summary = await sync();
    expect([summary.status, summary.exitCode]).toEqual(['succeeded', 0]);
    const analyses = websites.reduce((sum, id) => sum + [...sandbox.truth.history(id)].length, 0);
    expect(summary.counters.citationsPerAnalysis).toEqual({ websites: 3, scans: analyses });
    for (const id of websites) expect(await loaded(citationsTable, id)).toEqual(truth(citationsTable, id));
    expect(
      logged.filter(
        (l) => l.message === 'the API requires analysis_id for citations; reading them one scan per analysis',
      ),
    ).toHaveLength(1);
  });

  it('marks a website removed whose feed and own resource answer 404, keeps its rows so far, and skips its later streams', async () => {
    const { sandbox, destination, sync, websites, loaded, truth } = await engine();
    const revoked = websites[1]!;
    sandbox.faults.set({ kind: 'not_found', routes: ['mentions', 'websites.get'], websites: [revoked] });
    const summary = await sync();
    expect([summary.status, summary.exitCode]).toEqual(['succeeded', 0]);
    expect(summary.counters.revokedWebsites).toEqual([revoked]);
    expect(summary.counters.failedWebsites).toEqual([]);
    expect(summary.counters.removedWebsites).toBe(1);
    const removedAt = new Map((await readRows(destination, websitesTable)).map((r) => [r.id, r._removed_at]));
    expect(removedAt.get(revoked)).toBe(microsecondTimestamp(NOW.toISOString()));
    expect(websites.filter((id) => removedAt.get(id) !== null)).toEqual([revoked]);
    expect(await loaded(citationsTable, revoked)).toEqual([]);
    expect(await loaded(citationsTable, websites[0]!)).toEqual(truth(citationsTable, websites[0]!));
  });

  it('fails the run on a failed commit with no saved state ahead of its rows; the next run loads the rest', async () => {
    const { sandbox, destination, sync, websites, loaded, truth, stateOf } = await engine();
    // Commit 1 opens the run row, 2 writes the listing, 3 is the first flush of pages (1,000 rows): 4 fails.
    destination.faults.failCommitBefore = 4;
    await expect(sync()).rejects.toThrow();
    expect((await readRows(destination, runsTable)).map((r) => r.status)).toEqual(['failed']);
    const frontiers: (readonly [string, string])[] = [];
    for (const id of websites) {
      const frontier = (await stateOf('mentions', id))?.frontier;
      if (frontier !== undefined && frontier !== null) frontiers.push([id, frontier]);
    }
    // The flush that landed completed one website's scan (the first listed): only its frontier is saved.
    expect(frontiers.map(([id]) => id)).toEqual([(sandbox.truth.websites() as { id: string }[])[0]!.id]);
    for (const [id, frontier] of frontiers) {
      // Every mention the saved frontier vouches for is loaded.
      const vouched = truth(mentionsTable, id).filter(
        (r) => microsecondTimestamp(String(r.available_at)) <= microsecondTimestamp(frontier),
      );
      const ids = new Set((await loaded(mentionsTable, id)).map((r) => r.id));
      expect(vouched.filter((r) => !ids.has(r.id))).toEqual([]);
    }

    destination.faults.failCommitBefore = undefined;
    const next = await sync();
    expect([next.status, next.exitCode]).toEqual(['succeeded', 0]);
    for (const id of websites) expect(await loaded(mentionsTable, id)).toEqual(truth(mentionsTable, id));
  });

  it('finishes a resumed scan from its saved cursor, then reads on from the frontier it reached', async () => {
    const { sandbox, sync, websites, loaded, truth, stateOf } = await engine();
    expect((await sync()).exitCode).toBe(0);
    const id = websites[0]!;
    // A scan of several pages breaks after its first: the run ends with the scan's cursor saved.
    sandbox.clock.advance({ days: 8 });
    sandbox.faults.set({ kind: 'repeat_page', routes: ['mentions'], websites: [id] });
    expect((await sync()).exitCode).toBe(3);
    const stopped = (await stateOf('mentions', id))!;
    expect(stopped.cursor).not.toBeNull();
    sandbox.faults.clear();

    // Two more days are published before the next run: it must read them too.
    sandbox.clock.advance({ days: 2 });
    const next = await sync();
    expect([next.status, next.exitCode]).toEqual(['succeeded', 0]);
    for (const each of websites) expect(await loaded(mentionsTable, each)).toEqual(truth(mentionsTable, each));
    const caughtUp = (await stateOf('mentions', id))!;
    expect(caughtUp.cursor).toBeNull();
    expect(caughtUp.frontier! > stopped.pending_upper_bound!).toBe(true);
  });
});
