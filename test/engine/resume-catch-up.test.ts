/**
 * A run that resumes a saved scan (after a crash, a stop or a failed page) finishes it, then
 * reads a fresh scan from the frontier it reached in the same run: a run that succeeds is
 * complete through a bound read during that run, not through the old scan's bound. Engine
 * behaviour, so the fake destination proves it.
 */
import { expect, it } from 'vitest';
import { stateTable } from '../../src/tables/index.ts';
import { useEngineWorlds } from '../support/engine-worlds.ts';

const openWorld = useEngineWorlds();

it('finishes a resumed scan and catches up to a fresh bound in the same run', async () => {
  const world = await openWorld();
  expect((await world.sync()).exitCode).toBe(0);
  const id = world.sandbox.truth.websites().find((w) => w.last_analysis_at !== null)!.id;
  const stateOf = async () =>
    (await world.rows(stateTable)).find((r) => r.stream === 'mentions' && r.scope === id)!.state as {
      frontier: string;
      cursor: string | null;
      pending_upper_bound: string | null;
    };

  // A scan of three pages stops after its first: the run ends with the scan's cursor saved.
  world.sandbox.clock.advance({ days: 8 });
  world.sandbox.faults.set({ kind: 'repeat_page', routes: ['mentions'], websites: [id] });
  expect((await world.sync()).exitCode).toBe(3);
  const stopped = await stateOf();
  expect(stopped.cursor).not.toBeNull();
  world.sandbox.faults.clear();

  // Two more days are published before the next run: it must read them too.
  world.sandbox.clock.advance({ days: 2 });
  const next = await world.sync();
  expect(next.exitCode).toBe(0);
  await world.expectTruth();
  const caughtUp = await stateOf();
  expect(caughtUp.cursor).toBeNull();
  expect(caughtUp.frontier > stopped.pending_upper_bound!).toBe(true);
});
