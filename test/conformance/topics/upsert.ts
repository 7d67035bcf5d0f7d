/** Upsert by primary key: across flushes, within one flush (last row wins), write-once columns. */
import { expect } from 'vitest';
import { flushOf, kindsRow, kindsTable, pairsTable } from '../fixtures.ts';
import { conformanceTest, expected } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';

const T1 = '2026-01-01T00:00:00.000001Z';
const T2 = '2026-02-02T00:00:00.000002Z';

export function upsertTopic(target: ConformanceTarget): void {
  conformanceTest(target, 'upsert', 'a later flush replaces rows by primary key', async ({ destination, rows }) => {
    await destination.ensureTables([kindsTable]);
    const first = await commitFlush(
      destination,
      flushOf(kindsTable, [kindsRow('r001', { i: 1, s: 'one' }), kindsRow('r002', { i: 2 })]),
    );
    expect(first.rowsWritten).toEqual({ [kindsTable.name]: 2 });
    await commitFlush(destination, flushOf(kindsTable, [kindsRow('r001', { i: 10 }), kindsRow('r003', { i: 3 })]));
    expect(await rows(kindsTable)).toEqual(
      expected(kindsTable, [kindsRow('r001', { i: 10 }), kindsRow('r002', { i: 2 }), kindsRow('r003', { i: 3 })]),
    );
  });

  conformanceTest(
    target,
    'upsert',
    'duplicates inside one flush collapse to the last row',
    async ({ destination, rows }) => {
      await destination.ensureTables([kindsTable]);
      await commitFlush(destination, flushOf(kindsTable, [kindsRow('r001', { i: 0 })]));
      const result = await commitFlush(
        destination,
        flushOf(kindsTable, [
          kindsRow('r001', { i: 1 }),
          kindsRow('r002', { i: 2, s: 'first' }),
          kindsRow('r001', { i: 3 }),
          kindsRow('r002', { i: 4, s: null }),
          kindsRow('r001', { i: 5, s: 'last' }),
        ]),
      );
      expect(result.rowsWritten).toEqual({ [kindsTable.name]: 2 });
      expect(await rows(kindsTable)).toEqual(
        expected(kindsTable, [kindsRow('r001', { i: 5, s: 'last' }), kindsRow('r002', { i: 4 })]),
      );
    },
  );

  conformanceTest(
    target,
    'upsert',
    'composite keys and insertOnly columns kept on update',
    async ({ destination, rows }) => {
      await destination.ensureTables([pairsTable]);
      await commitFlush(
        destination,
        flushOf(pairsTable, [
          { a: 'x', b: 'y', v: 1, first_seen: T1 },
          { a: 'x', b: 'z', v: 2, first_seen: T1 },
        ]),
      );
      await commitFlush(
        destination,
        flushOf(pairsTable, [
          { a: 'x', b: 'y', v: 10, first_seen: T2 },
          { a: 'y', b: 'x', v: 20, first_seen: T2 },
          { a: 'x', b: 'y', v: 11, first_seen: T2 },
        ]),
      );
      expect(await rows(pairsTable)).toEqual(
        expected(pairsTable, [
          { a: 'x', b: 'y', v: 11, first_seen: T1 },
          { a: 'x', b: 'z', v: 2, first_seen: T1 },
          { a: 'y', b: 'x', v: 20, first_seen: T2 },
        ]),
      );
    },
  );

  conformanceTest(target, 'upsert', 'a flush spanning several tables writes each', async ({ destination, rows }) => {
    await destination.ensureTables([kindsTable, pairsTable]);
    const result = await commitFlush(destination, {
      tables: [
        { table: kindsTable, rows: [kindsRow('r001', { b: true })] },
        { table: pairsTable, rows: [{ a: 'p', b: 'q', v: -1, first_seen: T1 }] },
      ],
      state: [],
    });
    expect(result.rowsWritten[pairsTable.name]).toBe(1);
    expect(result.rowsWritten[kindsTable.name]).toBe(1);
    expect(await rows(kindsTable)).toEqual(expected(kindsTable, [kindsRow('r001', { b: true })]));
    expect(await rows(pairsTable)).toEqual(expected(pairsTable, [{ a: 'p', b: 'q', v: -1, first_seen: T1 }]));
  });
}
