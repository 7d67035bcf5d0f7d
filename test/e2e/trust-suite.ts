/**
 * The end-to-end checks of what a data engineer trusts the warehouse by, run by every SQL
 * destination that runs on the test machine (Postgres, DuckDB): `_aivis_completeness` and
 * `aivis status` as the sandbox's data clock moves, and `metric_versions` across a change of
 * metric bundle. The sandbox is the API; its truth is what the ledger must say.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { microsecondTimestamp } from '../../src/destination/timestamp-micros.ts';
import { selectedStreams } from '../../src/sync/run-sync.ts';
import { completenessTable, metricVersionsTable, runsTable, stateTable } from '../../src/tables/index.ts';
import { readStatus } from '../../src/trust/read-status.ts';
import { expectedMetricVersions } from './expected-rows.ts';
import { openWorld, SANDBOX, type SyncTarget, testConfig } from './sync-suite.ts';

const SIX_HOURS = 6 * 3600;

export function runTrustSuite(target: SyncTarget): void {
  describe(`completeness, status and metric versions in ${target.name}`, () => {
    let world: Awaited<ReturnType<typeof openWorld>>;
    beforeEach(async () => {
      world = await openWorld(target, SANDBOX);
    });
    afterEach(async () => {
      await world.close();
    });

    /** The data clock, which the runs and `status` share (no sleeps). */
    const dataNow = () => new Date(world.sandbox.clock.nowMs());
    const sync = (options: Parameters<typeof world.sync>[0] = {}) => world.sync({ now: dataNow, ...options });
    /** `aivis status --max-staleness 6h`, or without the flag (null), at the data clock's now. */
    const status = (maxStalenessSeconds: number | null = SIX_HOURS) =>
      readStatus(world.destination, {
        workspace: 'default',
        streams: selectedStreams(testConfig(world.sandbox)),
        now: dataNow(),
        maxStalenessSeconds: maxStalenessSeconds ?? undefined,
      });
    /** Per stream, the oldest committed frontier of `_aivis_state` (feeds), or the run's start (listing, snapshots). */
    const expectedCompleteThrough = async (runStart: string) => {
      const oldest = new Map<string, string>();
      for (const row of await world.rows(stateTable)) {
        const frontier = microsecondTimestamp((row.state as { frontier: string }).frontier);
        const stream = row.stream as string;
        if (!oldest.has(stream) || frontier < oldest.get(stream)!) oldest.set(stream, frontier);
      }
      const start = microsecondTimestamp(runStart);
      return { websites: start, analytics: start, ...Object.fromEntries(oldest) } as Record<string, string>;
    };

    it('status is 0 after a sync, 4 once the data clock passes --max-staleness without one, 0 again after the next, 4 after a failed run', async () => {
      const first = await sync();
      expect(first.status).toBe('succeeded');
      const through = await expectedCompleteThrough(first.startedAt);
      const fresh = await status();
      const ages = (now: Date) =>
        ['websites', 'analytics', 'analytics_history', 'mentions', 'citations'].map((stream) => ({
          stream,
          complete_through: through[stream]!,
          age_seconds: Math.max(0, Math.floor((now.getTime() - Date.parse(through[stream]!)) / 1000)),
          websites: 5,
          websites_complete: 5,
          checked_through: through[stream]!,
        }));
      expect(fresh.report).toEqual({
        last_run: {
          id: first.runId,
          command: 'sync',
          status: 'succeeded',
          started_at: microsecondTimestamp(first.startedAt),
          finished_at: microsecondTimestamp(first.finishedAt),
          counts: expect.objectContaining({
            websites: { planned: 5, done: 5, failed: [], removed: 0 },
          }),
          error: null,
        },
        rejected_since_last_success: 0,
        streams: ages(dataNow()).map((s) => ({ ...s, stale: false })),
        stale: false,
      });
      expect([fresh.reasons, fresh.exitCode]).toEqual([[], 0]);
      // Every scope the run completed has its row, named by the run.
      const rows = await world.rows(completenessTable);
      expect(new Set(rows.map((r) => r.run_id))).toEqual(new Set([first.runId]));
      expect(rows.filter((r) => r.stream === 'websites').map((r) => r.scope)).toEqual(['*']);

      world.sandbox.clock.advance({ hours: 6, minutes: 1 });
      const stale = await status();
      expect(stale.exitCode).toBe(4);
      expect(stale.report.streams).toEqual(ages(dataNow()).map((s) => ({ ...s, stale: s.age_seconds > SIX_HOURS })));
      expect(stale.reasons).toContain(
        `websites is complete through ${through.websites}, 6h 1m ago: older than --max-staleness 6h`,
      );
      // Without --max-staleness only a failed last run is stale.
      expect((await status(null)).exitCode).toBe(0);

      const second = await sync();
      expect(second.status).toBe('succeeded');
      const again = await status();
      expect([again.exitCode, again.report.last_run?.id, again.report.stale]).toEqual([0, second.runId, false]);

      // Runs follow each other under the lock: the next starts after the last one finished.
      world.sandbox.clock.advance({ minutes: 1 });
      const source = { base_url: world.sandbox.baseUrl, api_key: world.sandbox.keys.noReadScope };
      const refused = testConfig(world.sandbox, {
        source: {
          ...source,
          requests_per_minute: 6000,
          max_retries: 8,
          timeout_seconds: 30,
          retry_budget_seconds: 600,
        },
      });
      await expect(sync({ config: refused })).rejects.toThrow();
      const failedRun = (await world.rows(runsTable)).find((r) => r.status === 'failed')!;
      const failed = await status();
      expect([failed.exitCode, failed.report.last_run?.id, failed.report.last_run?.status]).toEqual([
        4,
        failedRun.id,
        'failed',
      ]);
      expect(failed.reasons).toEqual([`the last run ${failedRun.id} (sync) failed: ${failedRun.error}`]);
      expect((await status(null)).exitCode).toBe(4);
    });

    it('metric_versions follows the truth across a new metric definition bundle; the run that first sees it says so', async () => {
      // The sandbox's tags besides the bundle and visibility, as each notice lists them.
      const OTHER_TAGS =
        'public_metrics_v2, metric_precision_v1, average_mention_position_v1, citation_share_v1, sentiment_v1, share_of_voice_v1';
      const first = await sync();
      const firstRows = expectedMetricVersions(world.sandbox, 'default', () => first.runId);
      const read = async () =>
        (await world.rows(metricVersionsTable))
          .map(({ version_key: _key, website_ids: _ids, ...row }) => row)
          .sort((a, b) => ((a.first_as_of as string) < (b.first_as_of as string) ? -1 : 1));
      expect(await read()).toEqual(firstRows);
      // The sandbox's own boundary (each website's fourth analysis moves to bundle v2) is announced by the first run.
      expect(first.counters.metricVersionNotices).toEqual([
        `new combination of metric versions from ${firstRows[1]!.first_as_of.replace('.000000Z', 'Z')}: public_metric_definitions_v2, ${OTHER_TAGS}, visibility_v2 (was public_metric_definitions_v1, visibility_v1): do not mix series across it`,
      ]);

      world.sandbox.changeMetricVersions({ metric_definition_bundle_version: 'public_metric_definitions_v13' });
      world.sandbox.clock.advance({ days: 2 });
      const second = await sync();
      const rows = expectedMetricVersions(world.sandbox, 'default', (bundle) =>
        bundle === 'public_metric_definitions_v13' ? second.runId : first.runId,
      );
      // The new bundle from the change on; the website measured for the first time after it starts on visibility_v1.
      expect(rows.map((r) => [r.metric_definition_bundle_version, r.metric_definition_versions.visibility])).toEqual([
        ['public_metric_definitions_v1', 'visibility_v1'],
        ['public_metric_definitions_v2', 'visibility_v2'],
        ['public_metric_definitions_v13', 'visibility_v2'],
        ['public_metric_definitions_v13', 'visibility_v1'],
      ]);
      expect(await read()).toEqual(rows);
      const apiText = (stored: string) => stored.replace('.000000Z', 'Z');
      const notices = [
        `new combination of metric versions from ${apiText(rows[2]!.first_as_of)}: public_metric_definitions_v13, ${OTHER_TAGS}, visibility_v2 (was public_metric_definitions_v2): do not mix series across it`,
        // Bundle v13 and visibility_v1 were each seen before; together they are a new series.
        `new combination of metric versions from ${apiText(rows[3]!.first_as_of)}: public_metric_definitions_v13, ${OTHER_TAGS}, visibility_v1 (was visibility_v2): do not mix series across it`,
      ];
      expect(second.counters.metricVersionNotices).toEqual(notices);
      const runRow = (await world.rows(runsTable)).find((r) => r.id === second.runId)!;
      expect((runRow.counts as { metric_versions: string[] }).metric_versions).toEqual(notices);
      // A third run sees nothing new: no notice, the ledger only widens.
      world.sandbox.clock.advance({ days: 1 });
      expect((await sync()).counters.metricVersionNotices).toEqual([]);
    });
  });
}
