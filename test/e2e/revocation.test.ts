/**
 * A website revoked during a run (spec 1: it disappears at once, also from scans in
 * progress): a 404 on its feed, confirmed by a 404 on the website itself, marks it removed and
 * keeps what was committed (exit 0); a 404 the website read does not confirm stays a failure.
 * Engine behaviour, so one destination (DuckDB) proves it; the variant also runs the shared
 * suite in sync-variants.ts.
 */
import { expect, it } from 'vitest';
import { formatRunSummary } from '../../src/cli/run-summary.ts';
import { createClientStats } from '../../src/client/client-stats.ts';
import { runsTable, STREAM_TABLES, websitesTable } from '../../src/tables/index.ts';
import { useDuckdbWorlds } from './duckdb-worlds.ts';
import { SANDBOX } from './sync-suite.ts';

const openWorld = useDuckdbWorlds();

it('marks a website revoked mid-scan removed, keeps its committed rows, counts no failure, and exits 0', async () => {
  const world = await openWorld({ ...SANDBOX, variants: ['revoked_mid_scan'] });
  const [first] = world.sandbox.truth.websites();
  const id = first!.id;
  const summary = await world.sync();
  expect(summary.exitCode).toBe(0);
  expect(summary.status).toBe('succeeded');
  expect(summary.counters.failedWebsites).toEqual([]);
  expect(summary.counters.revokedWebsites).toEqual([id]);
  expect(summary.counters.removedWebsites).toBe(1);
  expect(summary.counters.websitesDone).toBe(summary.counters.websitesPlanned - 1);
  expect(world.sandbox.truth.websites().map((w) => w.id)).not.toContain(id);
  expect((await world.rows(websitesTable)).find((w) => w.id === id)?._removed_at).not.toBeNull();
  // The history scan and the first mentions page were read before the revocation: kept.
  expect((await world.rows(STREAM_TABLES.mentions[0]!)).filter((m) => m.website_id === id)).toHaveLength(500);
  expect((await world.rows(runsTable))[0]!.counts).toMatchObject({ websites: { removed: 1, revoked: [id], failed: [] } });
  expect(formatRunSummary(summary, createClientStats(), 'duckdb')).toContain(`, 1 marked removed (1 revoked during the run: ${id})\n`);
  await world.expectTruth();

  world.sandbox.clock.advance({ days: 1 });
  const next = await world.sync();
  expect(next.exitCode).toBe(0);
  expect(next.counters.websitesPlanned).toBe(world.sandbox.truth.websites().length);
  await world.expectTruth();
});

it('keeps a feed 404 a failure (exit 3) when the website itself still answers', async () => {
  const world = await openWorld();
  const [website] = world.sandbox.truth.websites();
  world.sandbox.faults.set({ kind: 'not_found', routes: ['mentions'], websites: [website!.id], count: 1 });
  const summary = await world.sync();
  expect(summary.exitCode).toBe(3);
  expect(summary.counters.revokedWebsites).toEqual([]);
  expect(summary.counters.failedWebsites.map((f) => [f.websiteId, f.stream])).toEqual([[website!.id, 'mentions']]);
  expect(summary.counters.failedWebsites[0]!.error).toMatch(new RegExp(`^not found \\(404 not_found, request_id req_\\d+\\): GET /public/v2/websites/${website!.id}/mentions: `));
  expect((await world.rows(websitesTable)).find((w) => w.id === website!.id)?._removed_at).toBeNull();
});
