/**
 * The end of a scan (spec 4.10 rule 1 does not say which signal wins): `has_more: false`
 * ends a scan whatever `next_cursor` holds (the `has_more_false_with_cursor` variant in
 * sync-variants.ts), and `has_more: true` without a cursor is a broken scan whose rows are
 * kept while its frontier stays. Engine behaviour, so the fake destination proves it.
 */
import { expect, it } from 'vitest';
import { STREAM_TABLES } from '../../src/streams/registry.ts';
import { stateTable } from '../../src/tables/index.ts';
import { useEngineWorlds } from '../support/engine-worlds.ts';

const openWorld = useEngineWorlds();

it('keeps the rows of a broken scan, reports it (exit 3), keeps its frontier, and the next run reads the scan again', async () => {
  const world = await openWorld();
  expect((await world.sync()).exitCode).toBe(0);
  const [website] = world.sandbox.truth.websites();
  const id = website!.id;
  const frontierOf = async () =>
    (await world.rows(stateTable)).find((r) => r.stream === 'mentions' && r.scope === id)!.state as Record<
      string,
      unknown
    >;
  const before = await frontierOf();
  const mentionIds = async () =>
    new Set(
      (await world.rows(STREAM_TABLES.mentions[0]!)).filter((r) => r.website_id === id).map((r) => r.id as string),
    );
  const idsBefore = await mentionIds();

  // Five days of new mentions (750) need two pages; the first comes back without its cursor.
  world.sandbox.clock.advance({ days: 5 });
  world.sandbox.faults.set({ kind: 'cursorless_page', routes: ['mentions'], websites: [id], count: 1 });
  const broken = await world.sync();
  expect(broken.exitCode).toBe(3);
  expect(broken.counters.failedWebsites.map((f) => [f.websiteId, f.stream])).toEqual([[id, 'mentions']]);
  expect(broken.counters.failedWebsites[0]!.error).toMatch(
    new RegExp(
      `^broken scan \\(200, request_id req_\\d+\\): GET /public/v2/websites/${id}/mentions: the API said has_more: true but sent no next_cursor`,
    ),
  );
  // The page's rows are kept: the first 500 of the scan from the saved frontier.
  const firstPage = [...world.sandbox.truth.mentions(id)]
    .filter((m) => (m.available_at as string) >= (before.frontier as string))
    .slice(0, 500);
  expect(await mentionIds()).toEqual(new Set([...idsBefore, ...firstPage.map((m) => m.id as string)]));
  expect(await frontierOf()).toEqual({ frontier: before.frontier, cursor: null, pending_upper_bound: null });

  const next = await world.sync();
  expect(next.exitCode).toBe(0);
  await world.expectTruth();
  expect((await frontierOf()).frontier).not.toBe(before.frontier);
});
