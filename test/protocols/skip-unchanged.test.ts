/**
 * `skip_unchanged` in `aivis airbyte read` (docs/protocols.md#change-driven-reads): the real CLI
 * process against the sandbox, its clock started at the sandbox's pinned data time
 * (test/setup/shifted-clock.ts) so both move together without sleeping. Only the streams the
 * catalog reads incrementally skip unchanged websites; a full-refresh stream, which an
 * overwrite destination replaces whole, has every website in every read; each incremental
 * stream keeps its coverage in its own state, and the next read decides from that state.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { sweepDueAtMs, sweepSlotMs } from '../../src/plan/sweep-slot.ts';
import { runCli } from '../support/cli-process.ts';
import { type AirbyteMessage, airbyteMessages } from '../support/protocol-messages.ts';
import { SANDBOX } from '../e2e/sync-suite.ts';
import { configFile, finished, jsonFile, latestRows, truthRows } from './protocol-world.ts';

const DAY = 86_400_000;
const FEEDS = ['analytics_history', 'mentions', 'citations'];
const SNAPSHOT = 'analytics_latest';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox(SANDBOX);
});
afterEach(async () => {
  await sandbox.close();
});

/** The catalog a platform hands over: the listing and a snapshot stream overwritten, the feeds incremental. */
const catalog = (overwritten: readonly string[] = []) =>
  jsonFile('catalog.json', {
    streams: [
      ...['websites', SNAPSHOT, ...overwritten].map((name) => ({
        name,
        sync_mode: 'full_refresh',
        destination_sync_mode: 'overwrite',
      })),
      ...FEEDS.filter((name) => !overwritten.includes(name)).map((name) => ({
        name,
        sync_mode: 'incremental',
        destination_sync_mode: 'append_dedup',
      })),
    ].map(({ name, ...modes }) => ({
      stream: { name, json_schema: {}, supported_sync_modes: ['full_refresh'] },
      ...modes,
    })),
  });

const skipping = () => configFile(sandbox, { skip_unchanged: true, sweep_every: '24h', settle_for: '2h' });

/** `aivis airbyte read` on the sandbox's data time, with `state` (the last STATE of each stream) when given. */
async function read(config: string, state?: readonly AirbyteMessage['state'][], overwritten?: readonly string[]) {
  const args = ['airbyte', 'read', '--config', config, '--catalog', catalog(overwritten)];
  if (state) args.push('--state', jsonFile('state.json', state));
  const before = { ...sandbox.stats.byRoute };
  const result = await finished(sandbox, runCli(args, {}, { now: new Date(sandbox.clock.nowMs()) }).done);
  expect(result.code).toBe(0);
  const messages = airbyteMessages(result.stdout);
  const requests = (route: string) => (sandbox.stats.byRoute[route] ?? 0) - (before[route] ?? 0);
  // The run's one summary of its plan, on stderr (stdout is the protocol's).
  const summary = result.stderr
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { messages, requests, summary };
}

const records = (messages: readonly AirbyteMessage[]) => messages.flatMap((m) => (m.record ? [m.record] : []));
const lastStates = (messages: readonly AirbyteMessage[]) => [
  ...new Map(
    messages.flatMap((m) => (m.state ? [[m.state.stream.stream_descriptor.name, m.state] as const] : [])),
  ).values(),
];

interface SavedCoverage {
  last_analysis_at: string | null;
  read_started_at: string;
  read_run_id: string;
  changed_at: string;
  checked_at: string | null;
}
const coverageOf = (states: readonly AirbyteMessage['state'][], stream: string) =>
  (
    states.find((s) => s!.stream.stream_descriptor.name === stream)!.stream.stream_state as {
      coverage?: Record<string, SavedCoverage>;
    }
  ).coverage ?? {};

const listed = () => new Map(sandbox.truth.websites().map((w) => [w.id, w.last_analysis_at ?? null]));

describe('skip_unchanged in aivis airbyte read', () => {
  it('skips unchanged websites in incremental streams only; the overwrite stream keeps every website; coverage lives in each stream state', async () => {
    const config = skipping();
    const first = await read(config);
    expect(first.summary).toEqual(['read 5 websites, skipped 0 unchanged']);
    const firstStates = lastStates(first.messages);
    const before = listed();
    const measured = [...before].filter(([, at]) => at !== null).map(([id]) => id);
    for (const stream of FEEDS)
      expect(Object.keys(coverageOf(firstStates, stream)).sort()).toEqual([...before.keys()].sort());
    // The full-refresh streams keep no coverage: they are never skipped.
    for (const stream of ['websites']) expect(coverageOf(firstStates, stream)).toEqual({});
    const firstStart = coverageOf(firstStates, 'mentions')[measured[0]!]!.read_started_at;

    sandbox.clock.advance({ hours: 3 });
    const second = await read(config, firstStates);
    const after = listed();
    const states = lastStates(second.messages);
    const mentions = coverageOf(states, 'mentions');
    // The second read's start, as its coverage records it (a read's or a check's).
    const secondStart =
      Object.values(mentions).find((c) => c.read_started_at !== firstStart)?.read_started_at ??
      Object.values(mentions)[0]!.checked_at!;
    const runStart = Date.parse(secondStart);
    const due = [...after.keys()].filter(
      (id) =>
        before.get(id) !== after.get(id) ||
        runStart >= sweepDueAtMs(Date.parse(firstStart), sweepSlotMs('default', id, DAY), DAY),
    );
    const skipped = [...after.keys()].filter((id) => !due.includes(id));
    // Seed 7 over these three hours: some websites unchanged, so the skip is exercised.
    expect(skipped.length).toBeGreaterThan(0);
    // Every website still reads the full-refresh snapshot stream: none is skipped whole.
    expect(second.summary).toEqual(['read 5 websites, skipped 0 unchanged']);

    // The overwrite stream has every measured website in this read alone: nothing a skip left out is lost.
    const snapshotIds = records(second.messages)
      .filter((r) => r.stream === SNAPSHOT)
      .map((r) => r.data.website_id as string);
    expect(snapshotIds.sort()).toEqual(
      [...after]
        .filter(([, at]) => at !== null)
        .map(([id]) => id)
        .sort(),
    );
    expect(latestRows(records(second.messages)).get(SNAPSHOT)).toEqual(truthRows(sandbox).get(SNAPSHOT));
    expect(second.requests('analytics.latest')).toBe(snapshotIds.length);

    // Each feed read only the websites due: one page each since the last read.
    for (const route of ['analytics.history', 'mentions', 'citations'])
      expect([route, second.requests(route)]).toEqual([route, due.length]);

    // Coverage stays in each feed's state: a skipped website checked at this read's start, a read one read then.
    for (const stream of FEEDS) {
      const coverage = coverageOf(states, stream);
      expect(Object.keys(coverage).sort()).toEqual([...after.keys()].sort());
      for (const id of skipped)
        expect([stream, id, coverage[id]!.read_started_at, coverage[id]!.checked_at]).toEqual([
          stream,
          id,
          firstStart,
          secondStart,
        ]);
      for (const id of due) expect([stream, id, coverage[id]!.read_started_at]).toEqual([stream, id, secondStart]);
    }
    // A STATE with the coverage follows the records it vouches for.
    for (const stream of FEEDS) {
      const lastRecord = second.messages.findLastIndex((m) => m.record?.stream === stream);
      const lastState = second.messages.findLastIndex((m) => m.state?.stream.stream_descriptor.name === stream);
      expect(lastState).toBeGreaterThan(lastRecord);
    }

    // A website read is read whole: with both reads' records its feeds equal the sandbox's truth.
    const union = latestRows([...records(first.messages), ...records(second.messages)]);
    const truth = truthRows(sandbox);
    const ofDue = (rows: readonly Record<string, unknown>[] | undefined) =>
      (rows ?? []).filter((r) => due.includes(r.website_id as string));
    for (const stream of FEEDS) expect([stream, ofDue(union.get(stream))]).toEqual([stream, ofDue(truth.get(stream))]);

    // The platform switches mentions to full_refresh + overwrite and still hands its state (with coverage) over:
    // the stream is read whole for every website, unchanged or not, so the overwritten table loses none.
    sandbox.clock.advance({ minutes: 10 });
    const third = await read(config, states, ['mentions']);
    expect(third.requests('mentions')).toBeGreaterThanOrEqual(after.size);
    expect(latestRows(records(third.messages)).get('mentions')).toEqual(truthRows(sandbox).get('mentions'));
  });
});
