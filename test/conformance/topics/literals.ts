/**
 * Served text in SQL (docs/served-contract.md#schema-evolution): a field's description becomes a
 * column's comment and its name a key of the fill's JSON path, both written as literals of the
 * connector's dialect. Whatever they hold (a quote, a backslash escaping one, `; DROP TABLE`,
 * control characters, NUL) they come back as written and run nothing: the canary table keeps its
 * row. A target whose session has legacy settings (Postgres `standard_conforming_strings = off`)
 * runs this topic too.
 */
import { expect } from 'vitest';
import type { DeclaredField } from '../../../src/contract/declared-fields.ts';
import { withoutNul } from '../../../src/destination/sql-dialect.ts';
import { planEvolution } from '../../../src/evolution/evolution-plan.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';
import { citationsTable } from '../../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable } from '../fixtures.ts';
import { conformanceTest } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';
import { citationRow } from './evolution.ts';

/** Text that ends a literal early under one dialect's rules or another's, then drops `canary`. */
export const hostileText = (canary: string): string =>
  `x\\'; DROP TABLE ${canary}; -- ' '' \\\\' " \\" \\x27 $$ $q$ \` \n\r\t\u0001\u001f\u007f\u0000 \u2028 ü 😀 \\`;

const field = (name: string, description: string): DeclaredField => ({
  name,
  schema: { type: 'string' },
  required: false,
  nullable: true,
  description,
});

export function literalsTopic(target: ConformanceTarget): void {
  conformanceTest(
    target,
    'literals',
    'a served description and field name holding quotes, backslashes and DROP TABLE come back verbatim and run nothing',
    async ({ destination, schema, rows }) => {
      const canary = `${schema}.${kindsTable.name}`;
      const hostile = hostileText(canary);
      await destination.ensureTables([kindsTable, citationsTable]);
      await commitFlush(destination, flushOf(kindsTable, [kindsRow('r001', { s: 'alive' })]));
      // Field names without NUL: a name the naming rule cannot take is the contract's concern.
      // First the payload of issue 40 as it was served (a description, a name), alone on its line.
      const payload = `x\\'; DROP TABLE ${canary}; --`;
      const names = [
        payload,
        hostile.replaceAll('\u0000', ''),
        `q'uote`,
        `b\\ack\\'`,
        `semi'; DROP TABLE ${canary}; --`,
      ];
      const values = Object.fromEntries(names.map((name, i) => [name, `value ${i} ${hostile}`]));
      await commitFlush(destination, flushOf(citationsTable, [citationRow(1, JSON.stringify(values))]));

      const declared = names.map((name, i) => field(name, i === 0 ? payload : `${name} described: ${hostile}`));
      const [plan] = planEvolution(
        [citationsTable],
        (stream) => (stream === 'citations' ? declared : []),
        await destination.columnTypes([citationsTable]),
      );
      expect(plan!.added).toHaveLength(names.length);
      await destination.ensureTables([plan!.table]);
      await destination.fillFromRaw(plan!.table, plan!.added);

      expect(await rows(kindsTable)).toHaveLength(1);
      const stored = target.storedText ?? ((text: string) => text);
      const named = target.namesJsonKey ?? (() => true);
      const [row] = await rows(plan!.table);
      expect(plan!.added.map((c) => row![c.column.name])).toEqual(
        names.map((name) => (named(name) ? stored(values[name] as string) : null)),
      );
      const comments = new Map(
        (await target.comments(schema))
          .filter((c) => c.table_name.toLowerCase() === citationsTable.name)
          .map((c) => [c.column_name?.toLowerCase(), c.comment]),
      );
      // The plan's description quotes the field's name and its own after it: all served text
      // (U+0000 as U+FFFD on every destination: no catalog keeps it in a comment).
      expect(plan!.added.every((c, i) => c.column.description.includes(withoutNul(declared[i]!.description!)))).toBe(
        true,
      );
      expect(plan!.added.map((c) => comments.get(c.column.name))).toEqual(plan!.added.map((c) => c.column.description));
      // A second ensure finds every comment current: nothing to set again.
      await destination.ensureTables([plan!.table]);
      expect(await rows(kindsTable)).toHaveLength(1);
    },
  );
}
