import { describe, expect, it } from 'vitest';
import type { StateEntry } from '../../src/state/state-entry.ts';
import { completenessTable } from '../../src/tables/index.ts';
import { completenessRow, listingScope, readWholeRow } from '../../src/trust/completeness.ts';

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
      '_workspace',
    ]);
  });

  it('gets a row when a scan moves the frontier, carrying the frontier verbatim and the run that moved it', () => {
    const previous = { frontier: '2026-01-01T00:00:00.123456789Z', cursor: null, pending_upper_bound: null };
    expect(
      completenessRow(entry('2026-01-02T23:40:00.987654321Z'), previous, { runId: 'run_b', workspace: 'default' }),
    ).toEqual({
      stream: 'mentions',
      scope: 'web_1',
      complete_through: '2026-01-02T23:40:00.987654321Z',
      run_id: 'run_b',
      updated_at: '2026-01-03T00:05:00.000Z',
      _workspace: 'default',
    });
    expect(
      completenessRow(entry('2026-01-02T00:00:00Z'), undefined, { runId: 'run_a', workspace: 'default' })?.run_id,
    ).toBe('run_a');
  });

  it('gets none while the frontier stays: mid-scan checkpoints, scans without scan_upper_bound, first scans in flight', () => {
    const saved = { frontier: '2026-01-01T00:00:00Z', cursor: null, pending_upper_bound: null };
    expect(
      completenessRow(entry('2026-01-01T00:00:00Z', 'cursor_2'), saved, { runId: 'run_b', workspace: 'default' }),
    ).toBeNull();
    expect(completenessRow(entry('2026-01-01T00:00:00Z'), saved, { runId: 'run_b', workspace: 'default' })).toBeNull();
    expect(completenessRow(entry(null, 'cursor_1'), undefined, { runId: 'run_a', workspace: 'default' })).toBeNull();
  });
});

describe('a listing or snapshot read whole', () => {
  it('is complete through the moment it was asked for', () => {
    expect(readWholeRow('websites', '*', '2026-01-03T00:00:00.000Z', { runId: 'run_c', workspace: 'default' })).toEqual(
      {
        stream: 'websites',
        scope: '*',
        complete_through: '2026-01-03T00:00:00.000Z',
        run_id: 'run_c',
        updated_at: '2026-01-03T00:00:00.000Z',
        _workspace: 'default',
      },
    );
  });
});

describe('the listing row of each workspace', () => {
  it('is * for default, as before workspaces, and *:<name> for the others, so two listings never share a key', () => {
    expect(listingScope('default')).toBe('*');
    expect(listingScope('acme')).toBe('*:acme');
  });
});
