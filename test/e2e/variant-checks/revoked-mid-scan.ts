/** `revoked_mid_scan`: the website revoked during the run is marked removed, its committed rows kept, no failure counted. */
import { expect } from 'vitest';
import { formatRunSummary } from '../../../src/cli/run-summary.ts';
import { createClientStats } from '../../../src/client/client-stats.ts';
import { STREAM_TABLES } from '../../../src/streams/registry.ts';
import { runsTable, websitesTable } from '../../../src/tables/index.ts';
import type { VariantCheck } from '../sync-suite.ts';

export const revokedMidScanCheck: VariantCheck = {
  name: 'marks a website revoked mid-scan removed, keeps its committed rows, counts no failure, and exits 0',
  async run(world) {
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
    expect((await world.rows(runsTable))[0]!.counts).toMatchObject({
      websites: { removed: 1, revoked: [id], failed: [] },
    });
    expect(formatRunSummary(summary, createClientStats(), world.destination.type)).toContain(
      `, 1 marked removed (1 revoked during the run: ${id})\n`,
    );
    await world.expectTruth();

    world.sandbox.clock.advance({ days: 1 });
    const next = await world.sync();
    expect(next.exitCode).toBe(0);
    expect(next.counters.websitesPlanned).toBe(world.sandbox.truth.websites().length);
    await world.expectTruth();
  },
};
