/** Tables are created idempotently; a column the contract adds later arrives by ALTER. */
import { expect } from 'vitest';
import type { TableSpec } from '../../../src/destination/table-spec.ts';
import { STREAM_TABLES } from '../../../src/streams/registry.ts';
import { ENGINE_TABLES } from '../../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable, pairsTable } from '../fixtures.ts';
import { conformanceTest, expected } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';

const CONTRACT_TABLES: readonly TableSpec[] = [...ENGINE_TABLES, ...Object.values(STREAM_TABLES).flat()];

export function schemaTopic(target: ConformanceTarget): void {
  conformanceTest(target, 'schema', 'ensureTables is idempotent and keeps rows', async ({ destination, rows }) => {
    await destination.ensureTables([...CONTRACT_TABLES, kindsTable, pairsTable]);
    await commitFlush(destination, flushOf(kindsTable, [kindsRow('r001', { s: 'kept' })]));
    await destination.ensureTables([...CONTRACT_TABLES, kindsTable, pairsTable]);
    await destination.ensureTables([kindsTable]);
    expect(await rows(kindsTable)).toEqual(expected(kindsTable, [kindsRow('r001', { s: 'kept' })]));
    for (const table of CONTRACT_TABLES) expect(await rows(table)).toEqual([]);
  });

  conformanceTest(
    target,
    'schema',
    'a column added to the contract is added by ALTER',
    async ({ destination, rows }) => {
      const older: TableSpec = {
        ...kindsTable,
        columns: kindsTable.columns.filter((c) => c.name !== 'b' && c.name !== 'j'),
      };
      await destination.ensureTables([older]);
      await commitFlush(
        destination,
        flushOf(older, [{ id: 'r001', s: 'old', i: 1, f: 1.5, t: '2026-01-01T00:00:00Z' }]),
      );
      await destination.ensureTables([kindsTable]);
      await commitFlush(destination, flushOf(kindsTable, [kindsRow('r002', { s: 'new', b: false, j: '{"x":1}' })]));
      expect(await rows(kindsTable)).toEqual(
        expected(kindsTable, [
          kindsRow('r001', { s: 'old', i: 1, f: 1.5, t: '2026-01-01T00:00:00Z' }),
          kindsRow('r002', { s: 'new', b: false, j: '{"x":1}' }),
        ]),
      );
    },
  );

  conformanceTest(target, 'schema', 'describeDdl has a CREATE statement for every table', async ({ destination }) => {
    const ddl = destination.describeDdl([...CONTRACT_TABLES, kindsTable]);
    for (const table of [...CONTRACT_TABLES, kindsTable]) {
      expect(
        ddl.filter((s) => /\bCREATE\b/i.test(s) && s.includes(table.name)).length,
        table.name,
      ).toBeGreaterThanOrEqual(1);
    }
  });
}
