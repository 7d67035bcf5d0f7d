/**
 * When a resumed scan is followed by a catch-up scan in the same run: only when finishing it
 * moved the frontier. `scan_upper_bound` is optional (spec 4.10); without it the frontier stays,
 * and a catch-up would read the same window again (from no frontier: the whole feed).
 */
import { BUNDLED_VALIDATION } from '../../src/contract/contract-validation.ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamState } from '../../src/state/state-entry.ts';
import { mentionsStream } from '../../src/streams/index.ts';
import { UNFILTERED_SCAN } from '../../src/streams/stream.ts';
import { countingObserver, RunCounters } from '../../src/sync/run-counters.ts';
import { scanFeed, type ScanFeedInput } from '../../src/feed/scan-feed.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { clientFixture, type ClientFixture } from '../client/support/client-fixture.ts';
import { json } from '../client/support/scripted-server.ts';
import { mention } from '../schemas/fixtures.ts';
import type { DurableUnit } from '../../src/feed/durable-unit.ts';

const BOUND = '2026-03-01T00:00:00Z';
const lastPage = (requestId: string, bound?: string) =>
  json(200, {
    data: [],
    meta: { request_id: requestId, has_more: false, next_cursor: null, ...(bound ? { scan_upper_bound: bound } : {}) },
  });

/** One mentions scan of `web_1` through the fixture's client into `sink`. */
const feedInput = (f: ClientFixture, sink: ScanFeedInput['sink'], saved: StreamState): ScanFeedInput => ({
  client: f.client,
  sink,
  observer: countingObserver(new RunCounters()),
  logger: silentLogger,
  stream: mentionsStream,
  scan: UNFILTERED_SCAN[0]!,
  scope: 'web_1',
  context: { websiteId: 'web_1', runId: 'run_1', syncedAt: BOUND, workspace: 'default' },
  validation: BUNDLED_VALIDATION,
  saved,
  now: () => new Date(BOUND),
});

describe('scanFeed after a resumed scan', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  async function resume(saved: StreamState): Promise<StreamState[]> {
    const states: StreamState[] = [];
    await scanFeed(feedInput(f, { add: async (part) => void (part.state && states.push(part.state.state)) }, saved));
    return states;
  }

  for (const frontier of [null, '2026-02-01T00:00:00Z']) {
    it(`makes no second scan when the API sends no scan_upper_bound (frontier ${frontier})`, async () => {
      // Any further request would be answered (an empty, finished scan): only the count tells.
      f = await clientFixture({ fallback: lastPage('fallback') });
      f.server.script(lastPage('r1'));
      const states = await resume({ frontier, cursor: 'c5', pending_upper_bound: null });
      expect(f.server.received).toHaveLength(1);
      expect(f.server.received[0]!.url).toContain('cursor=c5');
      expect(states).toEqual([{ frontier, cursor: null, pending_upper_bound: null }]);
    });
  }

  it('catches up from the frontier the resumed scan reached when that scan moved it', async () => {
    f = await clientFixture({ fallback: lastPage('fallback') });
    f.server.script(lastPage('r1', BOUND), lastPage('r2'));
    const states = await resume({ frontier: '2026-02-01T00:00:00Z', cursor: 'c5', pending_upper_bound: BOUND });
    expect(f.server.received.map((r) => new URL(r.url, 'http://x').searchParams.get('updated_since'))).toEqual([
      '2026-02-01T00:00:00Z',
      BOUND,
    ]);
    expect(f.server.received[1]!.url).not.toContain('cursor=');
    expect(states.at(-1)).toEqual({ frontier: BOUND, cursor: null, pending_upper_bound: null });
  });
});

describe('scanFeed with a page of long records', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  it('hands the rows to the buffer in parts as they are decoded, and the page state only with the last part', async () => {
    f = await clientFixture();
    // Three mentions of 1.5 M characters each: every row (its text and its `_raw`) fills a part of 2 M.
    const data = [1, 2, 3].map((n) => ({ ...mention(), id: `men_${n}`, sentence_text: `${n}`.repeat(1_500_000) }));
    f.server.script(
      json(200, { data, meta: { request_id: 'r1', has_more: false, next_cursor: null, scan_upper_bound: BOUND } }),
    );
    const units: DurableUnit[] = [];
    const counters = new RunCounters();
    await scanFeed({
      ...feedInput(
        f,
        { add: async (unit) => void units.push(unit) },
        { frontier: null, cursor: null, pending_upper_bound: null },
      ),
      observer: countingObserver(counters),
    });
    const mentionRows = (unit: DurableUnit) =>
      unit.tables.find((t) => t.table === mentionsStream.table)?.rows.map((r) => r.id) ?? [];
    expect(units.map(mentionRows)).toEqual([['men_1'], ['men_2'], ['men_3'], []]);
    expect(units.map((u) => u.state?.state)).toEqual([
      undefined,
      undefined,
      undefined,
      { frontier: BOUND, cursor: null, pending_upper_bound: null },
    ]);
    expect(counters.stream('mentions')).toMatchObject({ pages: 1, rows: 3, rejected: 0 });
  });
});
