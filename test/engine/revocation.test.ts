/**
 * A website's feed answering 404 while the website itself still answers: not a revocation
 * (that is the `revoked_mid_scan` variant's check, variant-checks/revoked-mid-scan.ts), so it
 * stays a failure. Engine behaviour, so the fake destination proves it.
 */
import { expect, it } from 'vitest';
import { websitesTable } from '../../src/tables/index.ts';
import { useEngineWorlds } from '../support/engine-worlds.ts';

const openWorld = useEngineWorlds();

it('keeps a feed 404 a failure (exit 3) when the website itself still answers', async () => {
  const world = await openWorld();
  const [website] = world.sandbox.truth.websites();
  world.sandbox.faults.set({ kind: 'not_found', routes: ['mentions'], websites: [website!.id], count: 1 });
  const summary = await world.sync();
  expect(summary.exitCode).toBe(3);
  expect(summary.counters.revokedWebsites).toEqual([]);
  expect(summary.counters.failedWebsites.map((f) => [f.websiteId, f.stream])).toEqual([[website!.id, 'mentions']]);
  expect(summary.counters.failedWebsites[0]!.error).toMatch(
    new RegExp(
      `^not found \\(404 not_found, request_id req_\\d+\\): GET /public/v2/websites/${website!.id}/mentions: `,
    ),
  );
  expect((await world.rows(websitesTable)).find((w) => w.id === website!.id)?._removed_at).toBeNull();
});
