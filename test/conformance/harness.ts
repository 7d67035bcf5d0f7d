/** What every topic needs: a unique schema per test, an opened destination, and skips by name. */
import { randomBytes } from 'node:crypto';
import { it } from 'vitest';
import type { Destination } from '../../src/destination/destination.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { normalizeRow, type LogicalRow } from './normalize.ts';
import type { ConformanceTarget } from './target.ts';

export interface Harness {
  /** A fresh schema name: lower case letters, digits and underscores (valid everywhere). */
  readonly schema: string;
  readonly destination: Destination;
  /** The destination's rows of `table`, sorted by primary key here too (collations differ). */
  rows(table: TableSpec): Promise<LogicalRow[]>;
  /** A second destination on the same schema, opened; closed with the test. */
  another(): Promise<Destination>;
}

export function uniqueSchema(topic: string): string {
  return `conf_${topic}_${randomBytes(5).toString('hex')}`;
}

/** Declares `<topic>: <name>`, skipped with the target's reason when it lists one. */
export function conformanceTest(
  target: ConformanceTarget,
  topic: string,
  name: string,
  body: (h: Harness) => Promise<void>,
): void {
  const title = `${topic}: ${name}`;
  const reason = target.skip?.[title];
  if (reason) {
    it.skip(`${title} (skipped: ${reason})`, () => {});
    return;
  }
  it(title, async () => {
    const schema = uniqueSchema(topic);
    const opened: Destination[] = [];
    const open = async () => {
      const d = await target.create(schema);
      opened.push(d);
      await d.open();
      return d;
    };
    try {
      const destination = await open();
      await body({
        schema,
        destination,
        rows: async (table) => sortByKey(table, await target.readRows(destination, schema, table)),
        another: open,
      });
    } finally {
      for (const d of opened.reverse()) await d.close();
      await target.cleanup?.(schema);
    }
  });
}

/** The logical form of rows as written, for `toEqual` against what the destination returns. */
export function expected(table: TableSpec, rows: readonly Record<string, unknown>[]): LogicalRow[] {
  return sortByKey(
    table,
    rows.map((r) => normalizeRow(table, r)),
  );
}

function sortByKey(table: TableSpec, rows: LogicalRow[]): LogicalRow[] {
  const key = (r: LogicalRow) => table.primaryKey.map((k) => String(r[k])).join('\u0001');
  return [...rows].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
}
