import { describe, expect, it } from 'vitest';
import { changeSettings, durationMs } from '../../src/plan/change-settings.ts';
import {
  type CoverageRecord,
  checkedThroughMs,
  coverageAfterCheck,
  coverageAfterRead,
} from '../../src/plan/coverage.ts';
import { type ListedWebsite, planReads, type ReadPlanInput, type StreamReadiness } from '../../src/plan/read-plan.ts';
import { sweepDueAtMs, sweepSlotMs } from '../../src/plan/sweep-slot.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-03-02T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const READY: StreamReadiness = { hasFrontier: true, unfinishedScan: false, partialSnapshot: false };
const SKIP = changeSettings({ skip_unchanged: true, sweep_every: '24h', settle_for: '2h' });

function record(overrides: Partial<CoverageRecord> = {}): CoverageRecord {
  return {
    _workspace: 'default',
    website_id: 'web_1',
    stream: 'mentions',
    last_analysis_at: '2026-03-01T10:00:00Z',
    read_started_at: iso(T0 - HOUR),
    read_run_id: 'run_a',
    changed_at: iso(T0 - DAY),
    checked_at: null,
    ...overrides,
  };
}

/** A plan of one website and stream: its decision. */
function decideOne(overrides: Partial<ReadPlanInput> = {}, website: Partial<ListedWebsite> = {}) {
  const plan = planReads({
    workspace: 'default',
    settings: SKIP,
    runStartMs: T0,
    readsWhatItNames: false,
    streams: ['mentions'],
    websites: [{ id: 'web_1', lastAnalysisAt: '2026-03-01T10:00:00Z', ...website }],
    coverage: () => record(),
    readiness: () => READY,
    ...overrides,
  });
  return plan.websites[0]!.decisions[0]!;
}

/** A website last read one hour before T0 whose slot is not due at T0 (found, not assumed). */
const NOT_DUE_ID = (() => {
  for (let i = 0; ; i++) {
    const id = `web_${i}`;
    const slot = sweepSlotMs('default', id, DAY);
    if (sweepDueAtMs(T0 - HOUR, slot, DAY) > T0) return id;
  }
})();

describe('planReads: each rule of change-driven reads', () => {
  const unchanged = { coverage: () => record({ website_id: NOT_DUE_ID }) };
  const site = { id: NOT_DUE_ID };

  it('skips an unchanged, settled website whose sweep is not due', () => {
    expect(decideOne(unchanged, site)).toEqual({ stream: 'mentions', read: false, reason: 'unchanged' });
  });
  it('reads every website every run without skip_unchanged (the default)', () => {
    expect(changeSettings(undefined)).toEqual({ skipUnchanged: false, sweepEveryMs: DAY, settleForMs: 2 * HOUR });
    expect(decideOne({ ...unchanged, settings: changeSettings(undefined) }, site).reason).toBe('every_run');
  });
  it('reads what a full refresh, --websites, backfill or verify names', () => {
    expect(decideOne({ ...unchanged, readsWhatItNames: true }, site).reason).toBe('named');
  });
  it('reads a stream the caller cannot skip (a full-refresh stream in a protocol mode)', () => {
    expect(decideOne({ ...unchanged, skippable: (s) => s !== 'mentions' }, site).reason).toBe('not_skippable');
    expect(decideOne({ ...unchanged, skippable: () => true }, site).reason).toBe('unchanged');
  });
  it('reads a stream without coverage', () => {
    expect(decideOne({ coverage: () => undefined }, site).reason).toBe('no_coverage');
  });
  it('reads when last_analysis_at differs as text, even for the same instant', () => {
    expect(decideOne(unchanged, { ...site, lastAnalysisAt: '2026-03-01T10:00:00.000Z' }).reason).toBe('changed');
    expect(decideOne(unchanged, { ...site, lastAnalysisAt: null }).reason).toBe('changed');
    const never = { coverage: () => record({ website_id: NOT_DUE_ID, last_analysis_at: null }) };
    expect(decideOne(never, { ...site, lastAnalysisAt: null }).reason).toBe('unchanged');
  });
  it('reads a stream without committed frontier, with an unfinished scan or a partial snapshot', () => {
    const ready = (r: Partial<StreamReadiness>) => ({ ...unchanged, readiness: () => ({ ...READY, ...r }) });
    expect(decideOne(ready({ hasFrontier: false }), site).reason).toBe('no_frontier');
    expect(decideOne(ready({ unfinishedScan: true }), site).reason).toBe('unfinished_scan');
    expect(decideOne(ready({ partialSnapshot: true }), site).reason).toBe('partial_snapshot');
  });
  it('reads while the run that first saw the analysis started less than settle_for ago', () => {
    const changedAt = (ms: number) => ({ coverage: () => record({ website_id: NOT_DUE_ID, changed_at: iso(ms) }) });
    expect(decideOne(changedAt(T0 - 2 * HOUR + 1), site).reason).toBe('settling');
    expect(decideOne(changedAt(T0 - 2 * HOUR), site).reason).toBe('unchanged');
    const noSettle = { ...changedAt(T0 - 1), settings: changeSettings({ skip_unchanged: true, settle_for: '0s' }) };
    expect(decideOne(noSettle, site).reason).toBe('unchanged');
  });
  it('reads at the first slot after the last complete read, not before', () => {
    const slot = sweepSlotMs('default', NOT_DUE_ID, DAY);
    const due = sweepDueAtMs(T0 - HOUR, slot, DAY);
    expect(due).toBeGreaterThan(T0 - HOUR);
    expect(due - (T0 - HOUR)).toBeLessThanOrEqual(DAY);
    expect((due - slot) % DAY).toBe(0);
    expect(decideOne({ ...unchanged, runStartMs: due - 1 }, site).reason).toBe('unchanged');
    expect(decideOne({ ...unchanged, runStartMs: due }, site).reason).toBe('sweep_due');
  });
  it('decides per stream: a stream never read does not make another skip or read', () => {
    const plan = planReads({
      workspace: 'default',
      settings: SKIP,
      runStartMs: T0,
      readsWhatItNames: false,
      streams: ['analytics_latest', 'mentions'],
      websites: [{ id: NOT_DUE_ID, lastAnalysisAt: '2026-03-01T10:00:00Z' }],
      coverage: (id, stream) => (stream === 'mentions' ? record({ website_id: id }) : undefined),
      readiness: () => READY,
    });
    expect(plan.websites[0]!.read).toEqual(['analytics_latest']);
    expect(plan.websites[0]!.decisions.map((d) => d.reason)).toEqual(['no_coverage', 'unchanged']);
    expect([plan.websitesRead, plan.websitesSkipped]).toEqual([1, 0]);
  });
});

describe('sweep slots', () => {
  it('come from workspace and website id, stable, within the period', () => {
    expect(sweepSlotMs('default', 'web_1', DAY)).toBe(sweepSlotMs('default', 'web_1', DAY));
    expect(sweepSlotMs('default', 'web_1', DAY)).not.toBe(sweepSlotMs('other', 'web_1', DAY));
    for (let i = 0; i < 200; i++) {
      const slot = sweepSlotMs('default', `web_${i}`, 90 * 60_000);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(90 * 60_000);
    }
  });
  it('a read exactly at a slot is due at the next one', () => {
    expect(sweepDueAtMs(5000, 5000, DAY)).toBe(5000 + DAY);
    expect(sweepDueAtMs(4999, 5000, DAY)).toBe(5000);
  });
});

describe('coverage records', () => {
  const run = { workspace: 'default', runId: 'run_b', startedAt: iso(T0) };
  it('a read of the same analysis keeps when it was first seen; a new one starts settling', () => {
    const before = record({ checked_at: iso(T0 - 30 * 60_000) });
    const target = { websiteId: 'web_1', stream: 'mentions', lastAnalysisAt: before.last_analysis_at };
    expect(coverageAfterRead(before, target, run)).toEqual({
      ...before,
      read_started_at: iso(T0),
      read_run_id: 'run_b',
    });
    const changed = coverageAfterRead(before, { ...target, lastAnalysisAt: '2026-03-02T00:00:00Z' }, run);
    expect(changed).toMatchObject({ changed_at: iso(T0), checked_at: null, last_analysis_at: '2026-03-02T00:00:00Z' });
    expect(coverageAfterRead(undefined, target, run).changed_at).toBe(iso(T0));
  });
  it('a check moves checked_at only', () => {
    expect(coverageAfterCheck(record(), run)).toEqual({ ...record(), checked_at: iso(T0) });
  });
  it('checked through: the later of read and check, at most one sweep after the read', () => {
    const read = T0 - 5 * HOUR;
    const through = (checked: number | null) =>
      checkedThroughMs(
        record({ read_started_at: iso(read), checked_at: checked === null ? null : iso(checked) }),
        SKIP,
      );
    expect(through(null)).toBe(read);
    expect(through(read - HOUR)).toBe(read);
    expect(through(T0)).toBe(T0);
    expect(through(read + 2 * DAY)).toBe(read + DAY);
  });
  it('durations: whole numbers of s, m, h or d', () => {
    expect([durationMs('30s'), durationMs('90m'), durationMs('24h'), durationMs('2d')]).toEqual([
      30_000,
      90 * 60_000,
      DAY,
      2 * DAY,
    ]);
    expect(() => durationMs('1h30m')).toThrow(RangeError);
  });
});

/**
 * Runs on a fake clock over `websites` unchanged websites (every stream settled and ready),
 * each run moving the records as a run would; returns how many each run read and, per
 * website, the longest time between two complete reads.
 */
function simulate(options: { websites: number; runAtMs: readonly number[]; sweepEvery: string; workspace?: string }) {
  const settings = changeSettings({ skip_unchanged: true, sweep_every: options.sweepEvery, settle_for: '2h' });
  const workspace = options.workspace ?? 'default';
  const ids = Array.from({ length: options.websites }, (_, i) => `web_${i}`);
  const start = options.runAtMs[0]!;
  const records = new Map<string, CoverageRecord>();
  const lastRead = new Map<string, number>();
  const longestGap = new Map<string, number>();
  const readPerRun: number[] = [];
  // Every website read whole once, long settled, at a spread of past times (as a first sync spread over a day would leave them).
  for (const [i, id] of ids.entries()) {
    const readAt = start - 1 - Math.floor((i / ids.length) * settings.sweepEveryMs);
    records.set(id, {
      ...record({ website_id: id, _workspace: workspace }),
      read_started_at: iso(readAt),
      changed_at: iso(readAt - 7 * DAY),
    });
    lastRead.set(id, readAt);
  }
  for (const [n, at] of options.runAtMs.entries()) {
    const run = { workspace, runId: `run_${n}`, startedAt: iso(at) };
    const plan = planReads({
      workspace,
      settings,
      runStartMs: at,
      readsWhatItNames: false,
      streams: ['mentions'],
      websites: ids.map((id) => ({ id, lastAnalysisAt: '2026-03-01T10:00:00Z' })),
      coverage: (id) => records.get(id),
      readiness: () => READY,
    });
    for (const website of plan.websites) {
      const before = records.get(website.id)!;
      if (website.read.length > 0) {
        const target = { websiteId: website.id, stream: 'mentions', lastAnalysisAt: before.last_analysis_at };
        records.set(website.id, coverageAfterRead(before, target, run));
        longestGap.set(website.id, Math.max(longestGap.get(website.id) ?? 0, at - lastRead.get(website.id)!));
        lastRead.set(website.id, at);
      } else records.set(website.id, coverageAfterCheck(before, run));
    }
    readPerRun.push(plan.websitesRead);
  }
  return { readPerRun, longestGap, lastRead, records, settings };
}

describe('sweeps spread evenly on a fake clock', () => {
  it('hourly runs with a 24h sweep: each run reads about 1/24 of 1,000 websites; each read within 25h', () => {
    const runAtMs = Array.from({ length: 24 * 4 }, (_, i) => T0 + i * HOUR);
    const { readPerRun, longestGap, lastRead } = simulate({ websites: 1000, runAtMs, sweepEvery: '24h' });
    const expected = 1000 / 24;
    for (const read of readPerRun.slice(24)) {
      expect(read).toBeGreaterThan(expected * 0.5);
      expect(read).toBeLessThan(expected * 1.6);
    }
    // Over whole days every website is read exactly once a day once the first sweep has passed.
    const day2 = readPerRun.slice(24, 48).reduce((a, b) => a + b, 0);
    expect(day2).toBe(1000);
    for (const gap of longestGap.values()) expect(gap).toBeLessThanOrEqual(DAY + HOUR);
    for (const at of lastRead.values()) expect(runAtMs.at(-1)! - at).toBeLessThanOrEqual(DAY + HOUR);
  });

  it('an irregular schedule reads unchanged x elapsed / sweep_every, and everyone within sweep_every + one interval', () => {
    // Gaps of 1h, 3h, 20m and 6h, repeated: the share follows the time since the last run.
    const gaps = [HOUR, 3 * HOUR, 20 * 60_000, 6 * HOUR];
    const runAtMs = [T0];
    for (let i = 0; i < 60; i++) runAtMs.push(runAtMs.at(-1)! + gaps[i % gaps.length]!);
    const { readPerRun, longestGap } = simulate({ websites: 2000, runAtMs, sweepEvery: '24h' });
    for (let i = 20; i < runAtMs.length; i++) {
      const expected = (2000 * (runAtMs[i]! - runAtMs[i - 1]!)) / DAY;
      expect(Math.abs(readPerRun[i]! - expected)).toBeLessThanOrEqual(Math.max(12, expected * 0.4));
    }
    for (const gap of longestGap.values()) expect(gap).toBeLessThanOrEqual(DAY + 6 * HOUR);
  });

  it('a sweep period shorter than the run interval reads everyone every run', () => {
    const runAtMs = Array.from({ length: 5 }, (_, i) => T0 + i * HOUR);
    const { readPerRun } = simulate({ websites: 50, runAtMs, sweepEvery: '30m' });
    expect(readPerRun.slice(1)).toEqual([50, 50, 50, 50]);
  });

  it('checked_through of an hourly schedule stays within one run of now, at most sweep_every behind', () => {
    const runAtMs = Array.from({ length: 48 }, (_, i) => T0 + i * HOUR);
    const { records, settings } = simulate({ websites: 300, runAtMs, sweepEvery: '24h' });
    const oldest = Math.min(...[...records.values()].map((r) => checkedThroughMs(r, settings)));
    expect(runAtMs.at(-1)! - oldest).toBeLessThanOrEqual(DAY);
    expect(oldest).toBeGreaterThanOrEqual(runAtMs.at(-1)! - DAY);
  });
});
