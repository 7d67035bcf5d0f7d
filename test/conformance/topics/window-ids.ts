/** The ids of one website's rows in a window of a timestamp column, as `aivis verify` reads them (docs/architecture.md#verify). */
import { expect } from 'vitest';
import { windowIds } from '../../../src/destination/queries/window-ids.ts';
import { column, type Row, type TableSpec } from '../../../src/destination/table-spec.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';
import { flushOf } from '../fixtures.ts';
import { conformanceTest } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';

/** Keyed like analytics_history: the website and an id within it; the stamp may be NULL, like a citation's. */
const stampedTable: TableSpec = {
  name: 'conf_stamped',
  description: 'The conf_stamped test table.',
  primaryKey: ['website_id', 'item_id'],
  columns: [
    column('website_id', 'string', false, 'website_id'),
    column('item_id', 'string', false, 'item_id'),
    column('available_at', 'timestamp', 'available_at'),
  ],
};

const row = (websiteId: string, itemId: string, availableAt: string | null): Row => ({
  website_id: websiteId,
  item_id: itemId,
  available_at: availableAt,
});

export function windowIdsTopic(target: ConformanceTarget): void {
  conformanceTest(
    target,
    'windows',
    "one website's ids within [since, until] at microsecond precision, NULL stamps outside",
    async ({ destination }) => {
      const query = { table: stampedTable.name, idColumn: 'item_id', websiteId: 'web_1', stampColumn: 'available_at' };
      // Bounds below the millisecond: BigQuery refuses a TIMESTAMP parameter with more than six
      // fraction digits, the nine the SDK writes for such a stamp (googleapis/nodejs-bigquery#1289).
      const since = '2026-03-01T00:00:00.000007Z';
      const until = '2026-03-02T00:00:00.000003Z';
      expect(await windowIds(destination, { ...query, since, until })).toEqual([]);
      await destination.ensureTables([stampedTable]);
      await commitFlush(
        destination,
        flushOf(stampedTable, [
          row('web_1', 'before', '2026-03-01T00:00:00.000006Z'),
          row('web_1', 'at_since', since),
          row('web_1', 'inside', '2026-03-01T12:00:00.5Z'),
          // Nanoseconds are truncated on the way in: stored at `until`, inside.
          row('web_1', 'at_until', '2026-03-02T00:00:00.000003999Z'),
          row('web_1', 'after', '2026-03-02T00:00:00.000004Z'),
          row('web_1', 'unstamped', null),
          row('web_2', 'other_website', '2026-03-01T12:00:00Z'),
        ]),
      );
      expect((await windowIds(destination, { ...query, since, until })).sort()).toEqual([
        'at_since',
        'at_until',
        'inside',
      ]);
      expect((await windowIds(destination, { ...query, since })).sort()).toEqual([
        'after',
        'at_since',
        'at_until',
        'inside',
      ]);
      expect(await windowIds(destination, { ...query, websiteId: 'web_3', since })).toEqual([]);
    },
  );
}
