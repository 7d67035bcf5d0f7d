/**
 * `_aivis_coverage` (docs/configuration.md#change-driven-reads): rows keyed by workspace,
 * website and stream, committed with the state of the flush that carries them, upserted as
 * later runs move them, and read back the way the run planner and `aivis status` read them.
 */
import { expect } from 'vitest';
import { readRows } from '../../../src/destination/queries/read-rows.ts';
import { changeSettings } from '../../../src/plan/change-settings.ts';
import {
  checkedThroughMs,
  coverageAfterCheck,
  type CoverageRecord,
  storedCoverage,
} from '../../../src/plan/coverage.ts';
import { commitFlush, readStateEntries } from '../../../src/state/state-rows.ts';
import { coverageTable, stateTable } from '../../../src/tables/index.ts';
import { flushOf, stateEntry } from '../fixtures.ts';
import { conformanceTest } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';

function coverage(workspace: string, websiteId: string, overrides: Partial<CoverageRecord> = {}): CoverageRecord {
  return {
    _workspace: workspace,
    website_id: websiteId,
    stream: 'mentions',
    last_analysis_at: '2026-03-01T10:00:00.123456789Z',
    read_started_at: '2026-03-02T00:00:00.000000Z',
    read_run_id: 'run_1',
    changed_at: '2026-03-01T23:00:00.000000Z',
    checked_at: null,
    ...overrides,
  };
}

export function coverageTopic(target: ConformanceTarget): void {
  conformanceTest(
    target,
    'coverage',
    'keep a row per workspace, website and stream with its state, upsert a later check over it, read it back exactly',
    async ({ destination, rows }) => {
      await destination.ensureTables([stateTable, coverageTable]);
      const first = [
        coverage('default', 'web_1'),
        coverage('agency-b', 'web_1'),
        coverage('default', 'web_2', { last_analysis_at: null, stream: 'citations' }),
      ];
      await commitFlush(destination, {
        ...flushOf(
          coverageTable,
          first.map((row) => ({ ...row })),
        ),
        state: [stateEntry('mentions', 'web_1', '2026-03-01T23:59:00Z')],
      });
      const later = coverageAfterCheck(first[0]!, {
        workspace: 'default',
        runId: 'run_2',
        startedAt: '2026-03-02T01:00:00.000000Z',
      });
      await commitFlush(destination, flushOf(coverageTable, [{ ...later }]));
      const stored = (await readRows(destination, coverageTable)).map((row) =>
        storedCoverage(row, String(row._workspace)),
      );
      const byKey = (r: CoverageRecord) => `${r._workspace}/${r.website_id}/${r.stream}`;
      expect(stored.sort((a, b) => byKey(a).localeCompare(byKey(b)))).toEqual(
        [later, first[1]!, first[2]!].sort((a, b) => byKey(a).localeCompare(byKey(b))),
      );
      expect((await rows(coverageTable)).length).toBe(3);
      // The state committed in the same flush as the rows.
      expect((await readStateEntries(destination)).map((e) => e.scope)).toEqual(['web_1']);
      const settings = changeSettings({ skip_unchanged: true });
      expect(checkedThroughMs(stored.find((r) => byKey(r) === 'default/web_1/mentions')!, settings)).toBe(
        Date.parse('2026-03-02T01:00:00Z'),
      );
    },
  );
}
