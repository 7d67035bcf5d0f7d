/**
 * A server that breaks the pagination contract (spec 4.10) never costs a row: each breach the
 * sandbox can commit fails that website's stream in bounded time (exit 3, a message naming the
 * website, the stream and what the server did), keeps its frontier, saves no cursor that
 * cannot be replayed, and leaves the other websites loaded; once the server behaves, the next
 * single run is complete and equals the truth. Engine behaviour, so the fake destination proves it.
 */
import { expect, it } from 'vitest';
import type { FaultKind } from '../../src/sandbox/index.ts';
import { STREAM_TABLES } from '../../src/streams/registry.ts';
import { stateTable } from '../../src/tables/index.ts';
import { useEngineWorlds } from '../support/engine-worlds.ts';

const openWorld = useEngineWorlds();

const breaches: [FaultKind, RegExp][] = [
  ['same_cursor', /the API sent a page of records whose next_cursor was already sent in this scan/],
  [
    'cursor_loop',
    /the API sent a page of records whose next_cursor was already sent in this scan|the API sent again the 500 records of an earlier page/,
  ],
  ['repeat_page', /the API sent again the 500 records of an earlier page of this scan, under a new cursor/],
  [
    'bound_future',
    /the API sent meta\.scan_upper_bound 2099-01-01T00:00:00Z, later than this machine's clock \([^)]+\) by more than the 60 minutes of clock skew aivis allows/,
  ],
  ['long_cursor', /the API sent a next_cursor of 22001 characters, more than the spec's 22000/],
  [
    'duplicate_meta_keys',
    /the body does not match the V2 contract: meta\.has_more: is given twice, so which value holds is not known/,
  ],
];

it.each(breaches)(
  '%s: the stream fails alone (exit 3), its frontier stays, and the next run is complete',
  async (kind, what) => {
    const world = await openWorld();
    expect((await world.sync()).exitCode).toBe(0);
    const websites = world.sandbox.truth.websites().filter((w) => w.last_analysis_at !== null);
    const id = websites[0]!.id;
    const stateOf = async (scope: string) =>
      (await world.rows(stateTable)).find((r) => r.stream === 'mentions' && r.scope === scope)!.state as {
        frontier: string;
        cursor: string | null;
      };
    const before = await stateOf(id);
    const mentionIds = async (websiteId: string) =>
      new Set(
        (await world.rows(STREAM_TABLES.mentions[0]!))
          .filter((r) => r.website_id === websiteId)
          .map((r) => r.id as string),
      );

    // Eight days of new mentions (1,200) need three pages: a continuation page with more to come to break.
    world.sandbox.clock.advance({ days: 8 });
    world.sandbox.faults.set({ kind, routes: ['mentions'], websites: [id] });
    const broken = await world.sync();
    expect(broken.exitCode).toBe(3);
    expect(broken.status).toBe('partial');
    expect(broken.counters.failedWebsites.map((f) => [f.websiteId, f.stream])).toEqual([[id, 'mentions']]);
    const message = broken.counters.failedWebsites[0]!.error;
    expect(message).toMatch(
      new RegExp(
        `^(broken scan|invalid response) \\(200, request_id req_\\d+\\): GET /public/v2/websites/${id}/mentions: `,
      ),
    );
    expect(message).toMatch(what);
    // Bounded: a scan of two pages ends within a handful of requests, whatever the server keeps doing.
    expect(broken.requests).toBeLessThan(60);

    const after = await stateOf(id);
    expect(after.frontier).toBe(before.frontier);
    expect((after.cursor ?? '').length).toBeLessThanOrEqual(22_000);
    for (const other of websites.slice(1))
      expect(await mentionIds(other.id), `mentions of ${other.id}`).toEqual(
        new Set([...world.sandbox.truth.mentions(other.id)].map((m) => m.id as string)),
      );

    world.sandbox.faults.clear();
    const next = await world.sync();
    expect(next.exitCode).toBe(0);
    await world.expectTruth();
    expect((await stateOf(id)).frontier > before.frontier).toBe(true);
  },
);
