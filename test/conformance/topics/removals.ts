/** Removal reconciliation of the websites listing (docs/architecture.md#tables, docs/architecture.md#state-rules). */
import { expect } from 'vitest';
import type { Destination } from '../../../src/destination/destination.ts';
import { listActiveWebsites, markWebsitesRemoved } from '../../../src/destination/queries/active-websites.ts';
import type { Row } from '../../../src/destination/table-spec.ts';
import { websitesTable } from '../../../src/tables/index.ts';
import { flushOf } from '../fixtures.ts';
import { conformanceTest, expected } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';

const DAY1 = '2026-03-01T00:00:00.000000Z';
const DAY2 = '2026-03-02T00:00:00.000000Z';
const DAY3 = '2026-03-03T00:00:00.000000Z';

function website(
  id: string,
  runId: string,
  syncedAt: string,
  firstSeenAt = syncedAt,
  removedAt: string | null = null,
  workspace: string | null = null,
): Row {
  return {
    id,
    domain_url: `https://${id}.example.com`,
    country: 'US',
    language: null,
    industry_niche: null,
    last_analysis_at: null,
    _first_seen_at: firstSeenAt,
    _removed_at: removedAt,
    _synced_at: syncedAt,
    _run_id: runId,
    _raw: JSON.stringify({ id }),
    _workspace: workspace,
  };
}

async function activeIds(destination: Destination): Promise<string[]> {
  return (await listActiveWebsites(destination)).map((w) => w.id).sort();
}

export function removalsTopic(target: ConformanceTarget): void {
  conformanceTest(
    target,
    'removals',
    'list active websites, mark removals once, clear on return',
    async ({ destination, rows }) => {
      await destination.ensureTables([websitesTable]);
      expect(await listActiveWebsites(destination)).toEqual([]);
      await commitFlush(
        destination,
        flushOf(
          websitesTable,
          ['web_1', 'web_2', 'web_3', 'web_4'].map((id) => website(id, 'run_a', DAY1)),
        ),
      );
      await commitFlush(
        destination,
        flushOf(
          websitesTable,
          ['web_1', 'web_3'].map((id) => website(id, 'run_b', DAY2)),
        ),
      );
      expect(await activeIds(destination)).toEqual(['web_1', 'web_2', 'web_3', 'web_4']);

      await markWebsitesRemoved(destination, ['web_2', 'web_4'], DAY2);
      expect(await activeIds(destination)).toEqual(['web_1', 'web_3']);
      // Marking again keeps the first removal time.
      await markWebsitesRemoved(destination, ['web_2'], DAY3);
      await markWebsitesRemoved(destination, [], DAY3);

      // web_2 comes back: the upsert clears `_removed_at` and keeps `_first_seen_at`.
      await commitFlush(destination, flushOf(websitesTable, [website('web_2', 'run_c', DAY3)]));
      expect(await rows(websitesTable)).toEqual(
        expected(websitesTable, [
          website('web_1', 'run_b', DAY2, DAY1),
          website('web_2', 'run_c', DAY3, DAY1),
          website('web_3', 'run_b', DAY2, DAY1),
          website('web_4', 'run_a', DAY1, DAY1, DAY2),
        ]),
      );
    },
  );

  conformanceTest(
    target,
    'removals',
    'active websites say their workspace; a NULL workspace (a row from before workspaces) reads as default',
    async ({ destination }) => {
      await destination.ensureTables([websitesTable]);
      await commitFlush(
        destination,
        flushOf(websitesTable, [
          website('web_1', 'run_a', DAY1),
          website('web_2', 'run_a', DAY1, DAY1, null, 'default'),
          website('web_3', 'run_b', DAY1, DAY1, null, 'agency-b'),
          website('web_4', 'run_b', DAY1, DAY1, DAY2, 'agency-b'),
        ]),
      );
      const active = await listActiveWebsites(destination);
      expect([...active].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        { id: 'web_1', workspace: 'default' },
        { id: 'web_2', workspace: 'default' },
        { id: 'web_3', workspace: 'agency-b' },
      ]);
    },
  );
}
