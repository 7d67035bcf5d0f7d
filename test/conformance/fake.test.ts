/**
 * The conformance suite on the fake (DuckDB behind the fault wrapper, no fault set): the
 * wrapper changes nothing it is not told to. Then the faults themselves.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readRows } from '../../src/destination/queries/read-rows.ts';
import { commitFlush, readStateEntries } from '../../src/state/state-rows.ts';
import { stateTable } from '../../src/tables/index.ts';
import { type FakeDestinationOptions, openFakeDestination } from '../support/fake-destination.ts';
import { withFaults } from '../support/faulty-destination.ts';
import { duckdbTarget } from '../support/targets/duckdb-target.ts';
import { flushOf, kindsRow, kindsTable, pairsTable, stateEntry } from './fixtures.ts';
import { runConformanceSuite } from './suite.ts';

const duckdb = duckdbTarget();
afterAll(() => duckdb.close());
runConformanceSuite({
  ...duckdb,
  name: 'fake',
  create: async (schema) => withFaults(await duckdb.create(schema)),
});

describe('fault injection', () => {
  const entry = stateEntry('mentions', 'web_1', 'f1');
  const flush = {
    tables: [
      { table: kindsTable, rows: [kindsRow('r001', { i: 1 })] },
      { table: pairsTable, rows: [{ a: 'a', b: 'b', v: 1, first_seen: '2026-01-01T00:00:00Z' }] },
    ],
    state: [entry],
  };
  const fresh = async (options: FakeDestinationOptions) => {
    const d = await openFakeDestination(options);
    await d.ensureTables([kindsTable, pairsTable, stateTable]);
    return d;
  };
  const ids = async (d: Parameters<typeof readRows>[0]) => (await readRows(d, kindsTable)).map((r) => r.id).sort();

  it('fails the Nth commit before applying it', async () => {
    const d = await fresh({ faults: { failCommitBefore: 2 } });
    await commitFlush(d, flushOf(kindsTable, [kindsRow('r000')]));
    await expect(commitFlush(d, flush)).rejects.toThrow('injected: commit 2 failed before applying');
    expect(await ids(d)).toEqual(['r000']);
    expect(await readStateEntries(d)).toEqual([]);
    expect([d.commitCalls, d.commitsApplied]).toEqual([2, 1]);
  });

  it('fails the Nth commit after applying it', async () => {
    const d = await fresh({ faults: { failCommitAfter: 1 } });
    await expect(commitFlush(d, flush)).rejects.toThrow('injected: commit 1 applied, then failed');
    expect(await readRows(d, pairsTable)).toHaveLength(1);
    expect(await readStateEntries(d)).toEqual([entry]);
    expect([d.commitCalls, d.commitsApplied]).toEqual([1, 1]);
  });

  it('fails on a table: nothing applied when transactional, earlier tables but no state otherwise', async () => {
    const transactional = await fresh({ faults: { failOnTable: pairsTable.name } });
    await expect(commitFlush(transactional, flush)).rejects.toThrow(
      'injected: commit failed on table "conformance_pairs"',
    );
    expect(await ids(transactional)).toEqual([]);

    const plain = await fresh({ capabilities: { transactional: false }, faults: { failOnTable: pairsTable.name } });
    await expect(commitFlush(plain, flush)).rejects.toThrow('injected: commit failed on table "conformance_pairs"');
    expect(await ids(plain)).toEqual(['r001']);
    expect(await readStateEntries(plain)).toEqual([]);
  });
});
