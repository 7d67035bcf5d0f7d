/**
 * Several workspaces in one schema (docs/architecture.md#many-workspaces), end to end: one
 * sandbox per workspace (distinct seeds, so distinct ids), one destination connection and one
 * client per workspace, their runs concurrent in this process as `aivis sync` runs them.
 * Each workspace's rows must equal its own sandbox's truth, and what happens in one workspace
 * (a removal, an empty listing) must touch no other.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.ts';
import type { Destination } from '../../src/destination/destination.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { DestinationStateStore } from '../../src/state/destination-state-store.ts';
import { runSync, syncTables, type RunSummary } from '../../src/sync/run-sync.ts';
import { metricVersionsTable, rejectedTable, runsTable, stateTable, websitesTable } from '../../src/tables/index.ts';
import { uniqueSchema } from '../conformance/harness.ts';
import { expectedMetricVersions } from './expected-rows.ts';
import { expectTruth, SANDBOX, type SyncTarget, testConfig } from './sync-suite.ts';

interface WorkspaceWorld {
  readonly name: string;
  readonly sandbox: Sandbox;
  readonly destination: Destination;
}

export function runWorkspacesSuite(target: SyncTarget): void {
  describe(`many workspaces in one ${target.name} schema`, () => {
    let schema: string;
    let opened: WorkspaceWorld[];
    const reader = () => opened[0]!.destination;
    const rows = (table: TableSpec) => target.readRows(reader(), schema, table);

    /** A workspace on its own sandbox and its own connection to the shared schema. */
    const open = async (name: string, seed: number): Promise<WorkspaceWorld> => {
      const sandbox = await startSandbox({ ...SANDBOX, seed });
      const destination = await target.create(schema);
      await destination.open();
      const world = { name, sandbox, destination };
      opened.push(world);
      return world;
    };

    const sync = async (world: WorkspaceWorld): Promise<RunSummary> => {
      const config = testConfig(world.sandbox);
      const client = new ApiClient({
        baseUrl: world.sandbox.baseUrl,
        apiKey: world.sandbox.apiKey,
        requestsPerMinute: 6000,
        maxRetries: 8,
        random: () => 0,
      });
      try {
        return await runSync({
          config,
          client,
          destination: world.destination,
          stateStore: new DestinationStateStore(world.destination, world.name),
          logger: silentLogger,
          workspace: world.name,
        });
      } finally {
        await client.close();
      }
    };

    /** Every workspace at once, as one `aivis sync` runs them: the tables made once first. */
    const syncAll = async (worlds: readonly WorkspaceWorld[]) => {
      await reader().ensureTables(syncTables(testConfig(worlds[0]!.sandbox)));
      return Promise.allSettled(worlds.map(sync));
    };

    const succeeded = (outcome: PromiseSettledResult<RunSummary>) => {
      expect(outcome.status === 'fulfilled' ? outcome.value.status : outcome.reason).toBe('succeeded');
    };

    /**
     * Each workspace's `metric_versions` rows are its own sandbox's truth (its websites behind
     * each combination, first seen by its run `firstRunIds[i]`), though the combinations, the
     * sandbox's, are the same in every workspace.
     */
    const expectOwnMetricVersions = async (worlds: readonly WorkspaceWorld[], firstRunIds: readonly string[]) => {
      const stored = await rows(metricVersionsTable);
      for (const [i, world] of worlds.entries()) {
        const own = stored
          .filter((r) => r._workspace === world.name)
          .map(({ version_key: _key, website_ids: _ids, ...row }) => row)
          .sort((a, b) => ((a.first_as_of as string) < (b.first_as_of as string) ? -1 : 1));
        expect(own).toEqual(expectedMetricVersions(world.sandbox, world.name, () => firstRunIds[i]!));
      }
      expect(new Set(stored.map((r) => r.version_key)).size * worlds.length).toBe(stored.length);
    };

    beforeEach(() => {
      schema = uniqueSchema('ws');
      opened = [];
    });
    afterEach(async () => {
      for (const world of opened.reverse()) {
        await world.destination.close();
        await world.sandbox.close();
      }
      await target.cleanup?.(schema);
    });

    it('three workspaces synced at once each equal their own truth, with their own runs and state', async () => {
      const worlds = [await open('acme', 7), await open('globex', 8), await open('initech', 9)];
      const first = await syncAll(worlds);
      first.forEach(succeeded);
      for (const world of worlds) await expectTruth(rows, world.sandbox, world.name);
      const firstRunIds = first.map((o) => (o.status === 'fulfilled' ? o.value.runId : ''));
      await expectOwnMetricVersions(worlds, firstRunIds);
      const runs = await rows(runsTable);
      expect(runs.map((r) => [r._workspace, r.status]).sort()).toEqual([
        ['acme', 'succeeded'],
        ['globex', 'succeeded'],
        ['initech', 'succeeded'],
      ]);
      const state = await rows(stateTable);
      for (const world of worlds)
        expect(state.filter((r) => r._workspace === world.name)).toHaveLength(
          world.sandbox.truth.websites().length * 3,
        );

      // A second round after new data: still each its own truth, incrementally.
      for (const world of worlds) world.sandbox.clock.advance({ days: 2 });
      (await syncAll(worlds)).forEach(succeeded);
      for (const world of worlds) await expectTruth(rows, world.sandbox, world.name);
      await expectOwnMetricVersions(worlds, firstRunIds);
    });

    it('a website removed in one workspace is marked removed there and nowhere else', async () => {
      const worlds = [await open('acme', 7), await open('globex', 8), await open('initech', 9)];
      (await syncAll(worlds)).forEach(succeeded);
      const globex = worlds[1]!;
      const [gone] = globex.sandbox.truth.websites() as { id: string }[];
      globex.sandbox.removeWebsite(gone!.id);
      const outcomes = await syncAll(worlds);
      outcomes.forEach(succeeded);
      expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value.counters.removedWebsites : -1))).toEqual([
        0, 1, 0,
      ]);
      const removed = (await rows(websitesTable)).filter((w) => w._removed_at !== null);
      expect(removed.map((w) => [w._workspace, w.id])).toEqual([['globex', gone!.id]]);
      for (const world of worlds) await expectTruth(rows, world.sandbox, world.name);
    });

    it("an empty listing trips only its own workspace's mass-removal guard", async () => {
      const worlds = [await open('acme', 7), await open('globex', 8), await open('initech', 9)];
      (await syncAll(worlds)).forEach(succeeded);
      const initech = worlds[2]!;
      for (const w of initech.sandbox.truth.websites() as { id: string }[]) initech.sandbox.removeWebsite(w.id);
      const [acme, globex, refused] = await syncAll(worlds);
      succeeded(acme!);
      succeeded(globex!);
      expect(refused).toMatchObject({
        status: 'rejected',
        reason: expect.objectContaining({
          message:
            'the website listing would mark 5 of 5 known websites as removed (all of them); nothing was written. ' +
            'If the API key now belongs to another workspace, fix source.api_key. ' +
            'If the websites really were deleted, run again with --allow-mass-removal.',
        }),
      });
      expect((await rows(websitesTable)).filter((w) => w._removed_at !== null)).toEqual([]);
      const runs = await rows(runsTable);
      expect(
        runs
          .filter((r) => r._workspace === 'initech')
          .map((r) => r.status)
          .sort(),
      ).toEqual(['failed', 'succeeded']);
    });

    it('a website id seen from two workspaces is rejected with its reason, never overwritten', async () => {
      const first = await open('acme', 7);
      // The same seed: the same website ids, listed by a second workspace.
      const twin = await open('globex', 7);
      succeeded((await syncAll([first]))[0]!);
      const before = await rows(websitesTable);
      const summary = await sync(twin);
      expect(summary.status).toBe('partial');
      expect(summary.exitCode).toBe(3);
      const ids = (first.sandbox.truth.websites() as { id: string }[]).map((w) => w.id).sort();
      expect(summary.counters.stream('websites').rejected).toBe(ids.length);
      expect(summary.counters.websitesPlanned).toBe(0);
      const rejected = (await rows(rejectedTable)).filter((r) => r._workspace === 'globex');
      expect(rejected.map((r) => [r.stream, r.scope, r.error]).sort()).toEqual(
        ids.map((id) => [
          'websites',
          id,
          `website ${id} is already synced from workspace "acme"; an id seen from two workspaces is not overwritten`,
        ]),
      );
      expect(await rows(websitesTable)).toEqual(before);
      await expectTruth(rows, first.sandbox, 'acme');
      // The same conflict on the next run is the same rejection, not another row.
      await sync(twin);
      expect((await rows(rejectedTable)).filter((r) => r._workspace === 'globex')).toHaveLength(ids.length);
    });

    it('the same workspace twice at once is refused with the lock-held message', async () => {
      const acme = await open('acme', 7);
      // A second connection for the same workspace, as a second process would have.
      const again = { ...acme, destination: await target.create(schema) };
      await again.destination.open();
      const holder = await acme.destination.acquireLock({
        runId: 'run_holder',
        host: 'h',
        pid: 1,
        startedAt: '2026-03-01T00:00:00.000Z',
        workspace: 'acme',
      });
      try {
        await expect(sync(again)).rejects.toThrow(
          `another aivis run holds the lock on schema "${schema}" for workspace "acme": run run_holder on h pid 1 since 2026-03-01T00:00:00.000Z`,
        );
        // Another workspace is not held back.
        const globex = await open('globex', 8);
        succeeded((await syncAll([globex]))[0]!);
      } finally {
        await holder.release();
        await again.destination.close();
      }
    });
  });
}
