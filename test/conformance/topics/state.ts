/** State is visible only once committed, per stream and scope, and never without its rows. */
import { expect } from 'vitest';
import { deleteState } from '../../../src/destination/queries/saved-state.ts';
import type { StateEntry } from '../../../src/state/state-entry.ts';
import { ENGINE_TABLES } from '../../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable, pairsTable, stateEntry } from '../fixtures.ts';
import { conformanceTest, expected } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';
import { commitFlush, readStateEntries } from '../../../src/state/state-rows.ts';

const byKey = (entries: StateEntry[]) =>
  [...entries].sort((a, b) => `${a.stream}/${a.scope}`.localeCompare(`${b.stream}/${b.scope}`));

export function stateTopic(target: ConformanceTarget): void {
  conformanceTest(
    target,
    'state',
    'visible once committed, per stream and scope',
    async ({ destination, rows, another }) => {
      await destination.ensureTables([...ENGINE_TABLES, kindsTable]);
      expect(await readStateEntries(destination)).toEqual([]);
      const entries = [
        stateEntry('mentions', 'web_1', '2026-03-01T00:00:00.123456Z', 'cursor-a'),
        stateEntry('mentions', 'web_2', null),
        stateEntry('websites', '*', '2026-03-01T00:00:00Z'),
      ];
      await commitFlush(destination, flushOf(kindsTable, [kindsRow('r001')], entries));
      expect(byKey(await readStateEntries(destination))).toEqual(byKey(entries));
      // Durable, not just cached: a second destination on the schema (a later run) reads the same.
      expect(byKey(await readStateEntries(await another()))).toEqual(byKey(entries));
      expect(await rows(kindsTable)).toEqual(expected(kindsTable, [kindsRow('r001')]));
    },
  );

  conformanceTest(
    target,
    'state',
    'before the first sync there is no state, and nothing to delete',
    async ({ destination }) => {
      // `aivis state show` on a fresh destination: no tables yet.
      expect(await readStateEntries(destination)).toEqual([]);
      expect(await deleteState(destination, { workspace: 'default' })).toBe(0);
    },
  );

  conformanceTest(
    target,
    'state',
    'a later commit replaces one entry and leaves the others',
    async ({ destination }) => {
      await destination.ensureTables(ENGINE_TABLES);
      const web1 = stateEntry('mentions', 'web_1', 'frontier-1 kept verbatim: 2026-03-01T00:00:00.1+00:00');
      const web2 = stateEntry('mentions', 'web_2', 'f2');
      await commitFlush(destination, { tables: [], state: [web1, web2] });
      const moved = stateEntry('mentions', 'web_1', 'f1-next', 'next-cursor');
      await commitFlush(destination, {
        tables: [],
        state: [stateEntry('mentions', 'web_1', 'overwritten in the same flush'), moved],
      });
      expect(byKey(await readStateEntries(destination))).toEqual([moved, web2]);
    },
  );

  conformanceTest(target, 'state', 'deleteState filters by stream and scope', async ({ destination }) => {
    await destination.ensureTables(ENGINE_TABLES);
    const all = [
      stateEntry('mentions', 'web_1', 'a'),
      stateEntry('mentions', 'web_2', 'b'),
      stateEntry('citations', 'web_1', 'c'),
      stateEntry('citations', 'web_2', 'd'),
      stateEntry('websites', '*', 'e'),
    ];
    await commitFlush(destination, { tables: [], state: all });
    expect(await deleteState(destination, { workspace: 'default', stream: 'mentions', scope: 'web_1' })).toBe(1);
    expect(await deleteState(destination, { workspace: 'default', scope: 'web_2' })).toBe(2);
    expect(await deleteState(destination, { workspace: 'default', stream: 'nothing' })).toBe(0);
    expect(byKey(await readStateEntries(destination))).toEqual([all[2], all[4]]);
    expect(await deleteState(destination, { workspace: 'default', stream: 'citations' })).toBe(1);
    expect(await deleteState(destination, { workspace: 'default' })).toBe(1);
    expect(await readStateEntries(destination)).toEqual([]);
  });

  conformanceTest(
    target,
    'state',
    'a failed flush leaves no state (and no rows when transactional)',
    async ({ destination, rows }) => {
      await destination.ensureTables([...ENGINE_TABLES, kindsTable, pairsTable]);
      const before = stateEntry('mentions', 'web_1', 'before');
      await commitFlush(destination, flushOf(kindsTable, [kindsRow('r001', { i: 1 })], [before]));
      // The second table's row has a NULL key column: the destination must refuse the flush.
      const failing = {
        tables: [
          { table: kindsTable, rows: [kindsRow('r001', { i: 2 }), kindsRow('r002', { i: 2 })] },
          { table: pairsTable, rows: [{ a: null, b: 'x', v: 1, first_seen: '2026-01-01T00:00:00Z' }] },
        ],
        state: [stateEntry('mentions', 'web_1', 'after')],
      };
      await expect(commitFlush(destination, failing)).rejects.toThrow();
      expect(await readStateEntries(destination)).toEqual([before]);
      if (destination.capabilities.transactional) {
        expect(await rows(kindsTable)).toEqual(expected(kindsTable, [kindsRow('r001', { i: 1 })]));
      }
      expect(await rows(pairsTable)).toEqual([]);
    },
  );

  conformanceTest(
    target,
    'state',
    'replaying an uncommitted flush leaves no duplicate',
    async ({ destination, rows }) => {
      await destination.ensureTables([...ENGINE_TABLES, kindsTable]);
      const page = [kindsRow('r001', { i: 1 }), kindsRow('r002', { i: 2 })];
      const entry = stateEntry('mentions', 'web_1', null, 'page-2');
      // A run killed after the rows landed but before it learned so replays the same flush.
      await commitFlush(destination, flushOf(kindsTable, page, [entry]));
      await commitFlush(destination, flushOf(kindsTable, page, [entry]));
      expect(await rows(kindsTable)).toEqual(expected(kindsTable, page));
      expect(await readStateEntries(destination)).toEqual([entry]);
    },
  );

  conformanceTest(
    target,
    'state',
    'each workspace reads and deletes its own state only (docs/architecture.md#many-workspaces)',
    async ({ destination }) => {
      await destination.ensureTables(ENGINE_TABLES);
      const own = stateEntry('mentions', 'web_1', 'a');
      const theirs = stateEntry('mentions', 'web_2', 'b');
      await commitFlush(destination, { tables: [], state: [own] }, 'default');
      await commitFlush(destination, { tables: [], state: [theirs] }, 'agency-b');
      expect(await readStateEntries(destination, 'default')).toEqual([own]);
      expect(await readStateEntries(destination, 'agency-b')).toEqual([theirs]);
      expect(await deleteState(destination, { workspace: 'agency-b' })).toBe(1);
      expect(await readStateEntries(destination, 'default')).toEqual([own]);
      expect(await readStateEntries(destination, 'agency-b')).toEqual([]);
    },
  );
}
