/**
 * The conformance suite on the fake: the fault wrapper with no fault set, over DuckDB files
 * (the locks topic opens one schema twice, which in-memory databases cannot share), so the
 * wrapper changes nothing it is not told to. Every target runs the faults topic; here also the
 * fake's non-transactional mode.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readRows } from '../../src/destination/queries/read-rows.ts';
import { commitFlush, readStateEntries } from '../../src/state/state-rows.ts';
import { stateTable } from '../../src/tables/index.ts';
import { openFakeDestination } from '../support/fake-destination.ts';
import { withFaults } from '../support/faulty-destination.ts';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { kindsRow, kindsTable, pairsTable, stateEntry } from './fixtures.ts';
import { runConformanceSuite } from './suite.ts';

const duckdb = duckdbTarget();
afterAll(() => duckdb.close());
runConformanceSuite({
  ...duckdb,
  name: 'fake',
  create: async (schema) => withFaults(await duckdb.create(schema)),
});

describe('fault injection on the fake', () => {
  it('commits a flush table by table when told it is not transactional: a failing table keeps the tables before it', async () => {
    const d = await openFakeDestination({
      capabilities: { transactional: false },
      faults: { failOnTable: pairsTable.name },
    });
    await d.ensureTables([kindsTable, pairsTable, stateTable]);
    const flush = {
      tables: [
        { table: kindsTable, rows: [kindsRow('r001', { i: 1 })] },
        { table: pairsTable, rows: [{ a: 'a', b: 'b', v: 1, first_seen: '2026-01-01T00:00:00Z' }] },
      ],
      state: [stateEntry('mentions', 'web_1', 'f1')],
    };
    await expect(commitFlush(d, flush)).rejects.toThrow('injected: commit failed on table "conformance_pairs"');
    expect((await readRows(d, kindsTable)).map((r) => r.id)).toEqual(['r001']);
    expect(await readStateEntries(d)).toEqual([]);
    await d.close();
  });
});
