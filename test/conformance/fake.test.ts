import { describe, expect, it } from 'vitest';
import { stateTable } from '../../src/tables/index.ts';
import {
  createFakeDestination,
  createFakeStore,
  type FakeDestination,
  type FakeStore,
} from '../support/fake-destination.ts';
import { flushOf, kindsRow, kindsTable, pairsTable, stateEntry } from './fixtures.ts';
import { normalizeRow } from './normalize.ts';
import { runConformanceSuite } from './suite.ts';
import { commitFlush, readStateEntries } from '../../src/state/state-rows.ts';

const stores = new Map<string, FakeStore>();

runConformanceSuite({
  name: 'fake',
  async create(schema) {
    if (!stores.has(schema)) stores.set(schema, createFakeStore());
    return createFakeDestination({ store: stores.get(schema), schema });
  },
  async readRows(destination, _schema, table) {
    return (destination as FakeDestination).rows(table.name).map((row) => normalizeRow(table, row));
  },
  async cleanup(schema) {
    stores.delete(schema);
  },
});

describe('fake destination fault injection', () => {
  const entry = stateEntry('mentions', 'web_1', 'f1');
  const flush = {
    tables: [
      { table: kindsTable, rows: [kindsRow('r001', { i: 1 })] },
      { table: pairsTable, rows: [{ a: 'a', b: 'b', v: 1, first_seen: '2026-01-01T00:00:00Z' }] },
    ],
    state: [entry],
  };
  const fresh = async (options: Parameters<typeof createFakeDestination>[0]) => {
    const d = createFakeDestination(options);
    await d.ensureTables([kindsTable, pairsTable, stateTable]);
    return d;
  };

  it('fails the Nth commit before applying it', async () => {
    const d = await fresh({ faults: { failCommitBefore: 2 } });
    await commitFlush(d, flushOf(kindsTable, [kindsRow('r000')]));
    await expect(commitFlush(d, flush)).rejects.toThrow('fake: commit 2 failed before applying');
    expect(d.rows(kindsTable.name).map((r) => r.id)).toEqual(['r000']);
    expect(await readStateEntries(d)).toEqual([]);
    expect([d.commitCalls, d.commitsApplied]).toEqual([2, 1]);
  });

  it('fails the Nth commit after applying it', async () => {
    const d = await fresh({ faults: { failCommitAfter: 1 } });
    await expect(commitFlush(d, flush)).rejects.toThrow('fake: commit 1 applied, then failed');
    expect(d.rows(pairsTable.name)).toHaveLength(1);
    expect(await readStateEntries(d)).toEqual([entry]);
    expect([d.commitCalls, d.commitsApplied]).toEqual([1, 1]);
  });

  it('fails on a table: nothing applied when transactional, earlier tables but no state otherwise', async () => {
    const transactional = await fresh({ faults: { failOnTable: pairsTable.name } });
    await expect(commitFlush(transactional, flush)).rejects.toThrow('fake: commit failed on table "conformance_pairs"');
    expect(transactional.rows(kindsTable.name)).toEqual([]);

    const plain = await fresh({ transactional: false, faults: { failOnTable: pairsTable.name } });
    await expect(commitFlush(plain, flush)).rejects.toThrow('fake: commit failed on table "conformance_pairs"');
    expect(plain.rows(kindsTable.name).map((r) => r.id)).toEqual(['r001']);
    expect(await readStateEntries(plain)).toEqual([]);
  });
});
