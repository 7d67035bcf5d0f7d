import { describe, expect, it } from 'vitest';
import type { StateEntry } from '../../src/state/state-entry.ts';
import { completenessTable } from '../../src/tables/index.ts';
import { completenessRow, readWholeRow } from '../../src/trust/completeness.ts';

const entry = (frontier: string | null, cursor: string | null = null): StateEntry => ({
  stream: 'mentions',
  scope: 'web_1',
  state: { frontier, cursor, pending_upper_bound: cursor === null ? null : '2026-01-03T00:00:00Z' },
  updatedAt: '2026-01-03T00:05:00.000Z',
});

describe('_aivis_completeness', () => {
  it('is keyed by stream and scope', () => {
    expect(completenessTable.primaryKey).toEqual(['stream', 'scope']);
    expect(completenessTable.columns.map((c) => c.name)).toEqual([
      'stream',
      'scope',
      'complete_through',
      'run_id',
      'updated_at',
    ]);
  });

  it('gets a row when a scan moves the frontier, carrying the frontier verbatim and the run that moved it', () => {
    const previous = { frontier: '2026-01-01T00:00:00.123456789Z', cursor: null, pending_upper_bound: null };
    expect(completenessRow(entry('2026-01-02T23:40:00.987654321Z'), previous, 'run_b')).toEqual({
      stream: 'mentions',
      scope: 'web_1',
      complete_through: '2026-01-02T23:40:00.987654321Z',
      run_id: 'run_b',
      updated_at: '2026-01-03T00:05:00.000Z',
    });
    expect(completenessRow(entry('2026-01-02T00:00:00Z'), undefined, 'run_a')?.run_id).toBe('run_a');
  });

  it('gets none while the frontier stays: mid-scan checkpoints, scans without scan_upper_bound, first scans in flight', () => {
    const saved = { frontier: '2026-01-01T00:00:00Z', cursor: null, pending_upper_bound: null };
    expect(completenessRow(entry('2026-01-01T00:00:00Z', 'cursor_2'), saved, 'run_b')).toBeNull();
    expect(completenessRow(entry('2026-01-01T00:00:00Z'), saved, 'run_b')).toBeNull();
    expect(completenessRow(entry(null, 'cursor_1'), undefined, 'run_a')).toBeNull();
  });
});

describe('a listing or snapshot read whole', () => {
  it('is complete through the moment it was asked for', () => {
    expect(readWholeRow('websites', '*', '2026-01-03T00:00:00.000Z', 'run_c')).toEqual({
      stream: 'websites',
      scope: '*',
      complete_through: '2026-01-03T00:00:00.000Z',
      run_id: 'run_c',
      updated_at: '2026-01-03T00:00:00.000Z',
    });
  });
});
