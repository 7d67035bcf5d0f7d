/**
 * Citations, whose fields the spec does not show (2.6): every JSON object is stored, a
 * malformed field only empties its column. Engine behaviour, so one destination (the fake one)
 * proves it; the citation variants run in sync-variants.ts.
 */
import { expect, it } from 'vitest';
import { citationsTable, rejectedTable } from '../../src/tables/index.ts';
import { useEngineWorlds } from '../support/engine-worlds.ts';

const openWorld = useEngineWorlds();

it('stores a citation whose observed_at is malformed, with that column NULL and the value in _raw (exit 0)', async () => {
  const world = await openWorld();
  const [website] = world.sandbox.truth.websites();
  world.sandbox.faults.set({
    kind: 'malformed_record',
    routes: ['citations'],
    websites: [website!.id],
    count: 1,
    field: 'observed_at',
    value: 'yesterday',
  });
  const summary = await world.sync();
  expect(summary.exitCode).toBe(0);
  expect(await world.rows(rejectedTable)).toEqual([]);
  const first = [...world.sandbox.truth.citations(website!.id)][0]!;
  const row = (await world.rows(citationsTable)).find((r) => r.id === first.id)!;
  expect(row).toMatchObject({
    website_id: website!.id,
    analysis_id: first.analysis_id,
    provider: first.provider,
    observed_at: null,
  });
  expect(row._raw).toEqual({ ...first, observed_at: 'yesterday' });
});
