/**
 * Hostile shapes (spec 2: objects may carry additional fields, of any depth): a snapshot
 * nested 5,000 levels deep is rejected whole, like any malformed snapshot. Listing and feed
 * records that deep are the `deep_records` variant's check (variant-checks/deep-records.ts).
 * Engine behaviour, so the fake destination proves it.
 */
import { expect, it } from 'vitest';
import { withDeepField } from '../../src/sandbox/data/deep-field.ts';
import { analyticsLatestTable, rejectedTable } from '../../src/tables/index.ts';
import { useEngineWorlds } from '../support/engine-worlds.ts';
import { TOO_DEEP_REASON } from '../e2e/variant-checks/deep-records.ts';

const openWorld = useEngineWorlds();

it('rejects a snapshot carrying a field 5,000 levels deep whole, once however often it is read', async () => {
  const world = await openWorld();
  const measured = world.sandbox.truth.websites().find((w) => w.last_analysis_at !== null)!;
  const deep = withDeepField({}).extensions;
  for (let run = 0; run < 2; run++) {
    world.sandbox.faults.set({
      kind: 'malformed_record',
      routes: ['analytics.latest'],
      websites: [measured.id],
      count: 1,
      field: 'extensions',
      value: deep,
    });
    expect((await world.sync()).exitCode).toBe(3);
  }
  expect((await world.rows(rejectedTable)).map((r) => [r.stream, r.scope, r.error, typeof r._raw])).toEqual([
    ['analytics', measured.id, TOO_DEEP_REASON, 'string'],
  ]);
  expect((await world.rows(analyticsLatestTable)).map((r) => r.website_id)).not.toContain(measured.id);
});
