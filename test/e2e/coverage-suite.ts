/**
 * Change-driven reads end to end (docs/configuration.md#change-driven-reads), on every SQL
 * destination that runs on the test machine: the real engine against the sandbox, whose
 * pinned data clock is also the runs' clock (no sleeps). What a run reads is checked against
 * the listing's own `last_analysis_at` and the sweep slots the docs define.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepDueAtMs, sweepSlotMs } from '../../src/plan/sweep-slot.ts';
import { selectedStreams } from '../../src/sync/run-sync.ts';
import { SYNC_MODE } from '../../src/run/run-mode.ts';
import { coverageTable } from '../../src/tables/index.ts';
import { readStatus } from '../../src/trust/read-status.ts';
import { openWorld, SANDBOX, type SyncTarget, testConfig } from './sync-suite.ts';

const DAY = 86_400_000;

export function runCoverageSuite(target: SyncTarget): void {
  describe(`change-driven reads in ${target.name}`, () => {
    let world: Awaited<ReturnType<typeof openWorld>>;
    beforeEach(async () => {
      world = await openWorld(target, SANDBOX);
    });
    afterEach(async () => {
      await world.close();
    });

    const dataNow = () => new Date(world.sandbox.clock.nowMs());
    const skipping = () =>
      testConfig(world.sandbox, {
        source: {
          ...testConfig(world.sandbox).source!,
          skip_unchanged: true,
          sweep_every: '24h',
          settle_for: '2h',
        },
      });
    const sync = (config = skipping()) => world.sync({ now: dataNow, config });
    const listed = () =>
      new Map(
        (world.sandbox.truth.websites() as { id: string; last_analysis_at: string | null }[]).map((w) => [
          w.id,
          w.last_analysis_at,
        ]),
      );
    /** Per website, the requests a whole read costs: the snapshot when measured, one page per feed. */
    const cost = (lastAnalysisAt: string | null) => (lastAnalysisAt === null ? 0 : 1) + 3;

    it('reads only websites with a new analysis or a sweep due; the default reads every one', async () => {
      const first = await sync();
      expect([first.exitCode, first.counters.websitesRead, first.counters.websitesSkippedUnchanged]).toEqual([0, 5, 0]);
      const before = listed();
      const firstStart = Date.parse(first.startedAt);
      const coverage = await world.rows(coverageTable);
      // One row per website and stream read (analytics only for measured websites' reads, which count as whole).
      expect(coverage).toHaveLength(5 * 4);
      expect(new Set(coverage.map((r) => r.read_run_id))).toEqual(new Set([first.runId]));

      const partial = [...before.keys()].filter(
        (id) =>
          (world.sandbox.truth.snapshot(id)?.meta as { data_quality?: { is_partial?: boolean } } | undefined)
            ?.data_quality?.is_partial === true,
      );
      world.sandbox.clock.advance({ hours: 3 });
      const second = await sync();
      const after = listed();
      const runStart = Date.parse(second.startedAt);
      const whole = [...after.keys()].filter(
        (id) =>
          before.get(id) !== after.get(id) ||
          runStart >= sweepDueAtMs(firstStart, sweepSlotMs('default', id, DAY), DAY),
      );
      // A partial snapshot is read again on its own: its feeds stay skipped.
      const snapshotOnly = partial.filter((id) => !whole.includes(id));
      const due = [...whole, ...snapshotOnly];
      expect(second.exitCode).toBe(0);
      expect(second.counters.websitesRead).toBe(due.length);
      expect(second.counters.websitesSkippedUnchanged).toBe(5 - due.length);
      // The served contract and the listing, then only what is due.
      expect(second.requests).toBe(2 + whole.reduce((sum, id) => sum + cost(after.get(id)!), 0) + snapshotOnly.length);
      const rows = await world.rows(coverageTable);
      for (const row of rows.filter((r) => !due.includes(r.website_id as string)))
        expect([row.read_run_id, Date.parse(String(row.checked_at))]).toEqual([first.runId, runStart]);

      // Without skip_unchanged, every website every run, as before.
      world.sandbox.clock.advance({ minutes: 1 });
      const plain = await sync(testConfig(world.sandbox));
      expect([plain.counters.websitesRead, plain.counters.websitesSkippedUnchanged]).toEqual([5, 0]);
      expect(plain.requests).toBe(2 + [...listed().values()].reduce((sum, at) => sum + cost(at), 0));
      // Skipped evidence is owed, not lost: a read of every website lands all of it.
      await world.expectTruth();
    });

    it('websites first seen less than settle_for ago are read again on the next run', async () => {
      await sync();
      world.sandbox.clock.advance({ minutes: 30 });
      // Every website was first seen less than settle_for ago: all are read again.
      const settling = await sync();
      expect([settling.counters.websitesRead, settling.counters.websitesSkippedUnchanged]).toEqual([5, 0]);
    });

    it('--websites and --full-refresh read what they name whatever changed', async () => {
      await sync();
      world.sandbox.clock.advance({ hours: 3 });
      const named = await world.sync({ now: dataNow, config: skipping(), mode: { ...SYNC_MODE, fullRefresh: true } });
      expect([named.counters.websitesRead, named.counters.websitesSkippedUnchanged]).toEqual([5, 0]);
    });

    it('a backfill reads every website it names, changed or not, and records no coverage', async () => {
      const first = await sync();
      world.sandbox.clock.advance({ hours: 3 });
      const coverageBefore = await world.rows(coverageTable);
      const backfill = await world.sync({
        now: dataNow,
        config: skipping(),
        mode: { kind: 'backfill', since: '2000-01-01T00:00:00Z' },
      });
      expect([backfill.exitCode, backfill.counters.websitesRead, backfill.counters.websitesSkippedUnchanged]).toEqual([
        0, 5, 0,
      ]);
      expect(await world.rows(coverageTable)).toEqual(coverageBefore);
      expect(new Set(coverageBefore.map((r) => r.read_run_id))).toEqual(new Set([first.runId]));
    });

    it('status counts every website in scope: a stream some websites never completed is stale (exit 4) until a run completes them', async () => {
      // A first run that read one website (as one stopped after it would): the listing holds all five.
      const [one] = listed().keys();
      await world.sync({ now: dataNow, config: skipping(), mode: { ...SYNC_MODE, websites: [one!] } });
      const status = await readStatus(world.destination, {
        workspace: 'default',
        streams: selectedStreams(skipping()),
        now: dataNow(),
        maxStalenessSeconds: undefined,
      });
      expect(status.exitCode).toBe(4);
      const mentions = status.report.streams.find((s) => s.stream === 'mentions')!;
      expect(mentions.websites).toBe(5);
      expect(mentions.websites_complete).toBeLessThan(5);
      expect(status.reasons).toContain(
        `mentions: ${5 - mentions.websites_complete!} of 5 websites in scope never completed`,
      );
      world.sandbox.clock.advance({ minutes: 1 });
      await sync();
      const after = await readStatus(world.destination, {
        workspace: 'default',
        streams: selectedStreams(skipping()),
        now: dataNow(),
        maxStalenessSeconds: 6 * 3600,
      });
      expect([after.exitCode, after.report.streams.every((s) => s.websites_complete === s.websites)]).toEqual([
        0,
        true,
      ]);
    });
  });
}
