/** The run log: rows of runs killed before they recorded their end are marked abandoned. */
import { expect } from 'vitest';
import { markAbandonedRuns } from '../../../src/destination/queries/abandoned-runs.ts';
import type { Row } from '../../../src/destination/table-spec.ts';
import { runsTable } from '../../../src/tables/index.ts';
import { flushOf } from '../fixtures.ts';
import { conformanceTest } from '../harness.ts';
import type { ConformanceTarget } from '../target.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';

function run(id: string, status: string, finishedAt: string | null = null, workspace: string | null = null): Row {
  return {
    id,
    command: 'sync',
    started_at: '2026-03-01T00:00:00.000000Z',
    finished_at: finishedAt,
    status,
    counts: '{}',
    error: null,
    _workspace: workspace,
  };
}

export function runsTopic(target: ConformanceTarget): void {
  conformanceTest(
    target,
    'runs',
    "mark the workspace's other running runs abandoned, leave finished ones, the current one and other workspaces' runs",
    async ({ destination, rows }) => {
      await destination.ensureTables([runsTable]);
      await commitFlush(
        destination,
        flushOf(runsTable, [
          run('run_killed', 'running'),
          run('run_done', 'succeeded', '2026-03-01T00:05:00.000000Z'),
          run('run_now', 'running', null, 'default'),
          run('run_other_workspace', 'running', null, 'agency-b'),
        ]),
      );
      await markAbandonedRuns(destination, 'run_now', 'default');
      const statuses = Object.fromEntries((await rows(runsTable)).map((r) => [r.id, [r.status, r.finished_at]]));
      expect(statuses).toEqual({
        run_done: ['succeeded', '2026-03-01T00:05:00.000000Z'],
        run_killed: ['abandoned', null],
        run_now: ['running', null],
        run_other_workspace: ['running', null],
      });
    },
  );
}
