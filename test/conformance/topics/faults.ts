/**
 * The fault wrapper (test/support/faulty-destination.ts) over this target's own connector: a
 * commit that fails before it applies stores nothing of it, one that fails after it applied
 * stores all of it, and one that fails on a table keeps what the destination's transactions
 * promise. Engine tests inject faults the same way on any destination.
 */
import { expect } from 'vitest';
import { readRows } from '../../../src/destination/queries/read-rows.ts';
import { commitFlush, readStateEntries } from '../../../src/state/state-rows.ts';
import { ENGINE_TABLES } from '../../../src/tables/index.ts';
import { withFaults } from '../../support/faulty-destination.ts';
import { flushOf, kindsRow, kindsTable, pairsTable, stateEntry } from '../fixtures.ts';
import { conformanceTest } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';

const entry = stateEntry('mentions', 'web_1', 'f1');
/** Two tables and a state entry: kinds first, pairs second, state last. */
const flush = {
  tables: [
    { table: kindsTable, rows: [kindsRow('r001', { i: 1 })] },
    { table: pairsTable, rows: [{ a: 'a', b: 'b', v: 1, first_seen: '2026-01-01T00:00:00Z' }] },
  ],
  state: [entry],
};

export function faultsTopic(target: ConformanceTarget): void {
  conformanceTest(
    target,
    'faults',
    'the Nth commit fails before applying: none of it is stored, and the commits are counted',
    async ({ destination }) => {
      const d = withFaults(destination, { failCommitBefore: 2 });
      await d.ensureTables([...ENGINE_TABLES, kindsTable, pairsTable]);
      await commitFlush(d, flushOf(kindsTable, [kindsRow('r000')]));
      await expect(commitFlush(d, flush)).rejects.toThrow('injected: commit 2 failed before applying');
      expect((await readRows(d, kindsTable)).map((r) => r.id)).toEqual(['r000']);
      expect(await readRows(d, pairsTable)).toEqual([]);
      expect(await readStateEntries(d)).toEqual([]);
      expect([d.commitCalls, d.commitsApplied]).toEqual([2, 1]);
    },
  );

  conformanceTest(
    target,
    'faults',
    'the Nth commit fails after applying: all of it is stored, state included',
    async ({ destination }) => {
      const d = withFaults(destination, { failCommitAfter: 1 });
      await d.ensureTables([...ENGINE_TABLES, kindsTable, pairsTable]);
      await expect(commitFlush(d, flush)).rejects.toThrow('injected: commit 1 applied, then failed');
      expect(await readRows(d, pairsTable)).toHaveLength(1);
      expect(await readStateEntries(d)).toEqual([entry]);
      expect([d.commitCalls, d.commitsApplied]).toEqual([1, 1]);
    },
  );

  conformanceTest(
    target,
    'faults',
    'a commit failing on a table keeps nothing when transactional, the tables before it otherwise, and never its state',
    async ({ destination }) => {
      const d = withFaults(destination, { failOnTable: pairsTable.name });
      await d.ensureTables([...ENGINE_TABLES, kindsTable, pairsTable]);
      await expect(commitFlush(d, flush)).rejects.toThrow('injected: commit failed on table "conformance_pairs"');
      const kept = destination.capabilities.transactional ? [] : ['r001'];
      expect((await readRows(d, kindsTable)).map((r) => r.id)).toEqual(kept);
      expect(await readStateEntries(d)).toEqual([]);
      expect([d.commitCalls, d.commitsApplied]).toEqual([1, 0]);
    },
  );
}
