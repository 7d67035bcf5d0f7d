/**
 * What every live warehouse test expects of `exerciseLiveDestination`'s line
 * (live-destination.ts), whatever the warehouse: the lock refused to a second holder, the
 * flush's row and state, and every concurrent workspace's row and state landed.
 */
import { expect } from 'vitest';
import { CONCURRENT_WORKSPACES } from './live-destination.ts';

export function expectSharedLiveRun(seen: Record<string, unknown>): void {
  expect(seen.refused).toBe('refused');
  expect((seen.result as { rowsWritten: unknown }).rowsWritten).toEqual({ conformance_kinds: 1 });
  expect(seen.state).toEqual([
    {
      stream: 'mentions',
      scope: 'web_1',
      state: { frontier: 'f1', cursor: null, pending_upper_bound: null },
      updatedAt: '2026-03-01T12:00:00.123456Z',
    },
  ]);
  expect(seen.together).toEqual({
    ids: [...CONCURRENT_WORKSPACES.map((_, k) => `c${k}`), 'r1'],
    state: CONCURRENT_WORKSPACES.map((_, k) => [`web_c${k}`]),
  });
}
