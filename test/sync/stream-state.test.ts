import { describe, expect, it } from 'vitest';
import {
  afterPage,
  INITIAL_STATE,
  isEarlier,
  isFutureBound,
  parseStreamState,
  restartScan,
} from '../../src/state/stream-state.ts';

describe('stream state transitions', () => {
  it('keeps the frontier mid-scan and saves the cursor and the pending bound verbatim', () => {
    const state = afterPage(
      { frontier: '2026-01-01T00:00:00Z', cursor: null, pending_upper_bound: null },
      {
        hasMore: true,
        nextCursor: 'c2',
        scanUpperBound: '2026-01-05T10:00:00.123456Z',
      },
    );
    expect(state).toEqual({
      frontier: '2026-01-01T00:00:00Z',
      cursor: 'c2',
      pending_upper_bound: '2026-01-05T10:00:00.123456Z',
    });
  });

  it('moves the frontier to the scan bound, byte for byte, when the scan ends', () => {
    const mid = { frontier: '2026-01-01T00:00:00Z', cursor: 'c2', pending_upper_bound: '2026-01-05T10:00:00.100Z' };
    expect(afterPage(mid, { hasMore: false, nextCursor: null, scanUpperBound: '2026-01-05T10:00:00.100Z' })).toEqual({
      frontier: '2026-01-05T10:00:00.100Z',
      cursor: null,
      pending_upper_bound: null,
    });
  });

  it('uses the pending bound when the last page omits scan_upper_bound', () => {
    const mid = { frontier: null, cursor: 'c2', pending_upper_bound: '2026-01-05T10:00Z' };
    expect(afterPage(mid, { hasMore: false, nextCursor: null, scanUpperBound: undefined }).frontier).toBe(
      '2026-01-05T10:00Z',
    );
  });

  it('does not move the frontier when the scan reported no bound at all', () => {
    expect(
      afterPage(
        { frontier: '2026-01-01T00:00:00Z', cursor: null, pending_upper_bound: null },
        { hasMore: false, nextCursor: null, scanUpperBound: undefined },
      ),
    ).toEqual({
      frontier: '2026-01-01T00:00:00Z',
      cursor: null,
      pending_upper_bound: null,
    });
    expect(afterPage(INITIAL_STATE, { hasMore: false, nextCursor: null, scanUpperBound: undefined })).toEqual(
      INITIAL_STATE,
    );
  });

  it('ends the scan on has_more: false even when a cursor comes with it', () => {
    const mid = { frontier: '2026-01-01T00:00:00Z', cursor: 'c2', pending_upper_bound: '2026-01-05T10:00Z' };
    expect(afterPage(mid, { hasMore: false, nextCursor: 'c3', scanUpperBound: '2026-01-05T10:00Z' })).toEqual({
      frontier: '2026-01-05T10:00Z',
      cursor: null,
      pending_upper_bound: null,
    });
  });

  it('keeps the frontier of a broken scan (has_more: true without a cursor), so the next run reads it again', () => {
    const mid = { frontier: '2026-01-01T00:00:00Z', cursor: 'c2', pending_upper_bound: '2026-01-05T10:00Z' };
    expect(afterPage(mid, { hasMore: true, nextCursor: null, scanUpperBound: '2026-01-05T10:00Z' })).toEqual({
      frontier: '2026-01-01T00:00:00Z',
      cursor: null,
      pending_upper_bound: null,
    });
  });

  it('never moves the frontier backwards: a scan whose bound is earlier leaves it where it was', () => {
    const saved = { frontier: '2026-01-05T10:00:00.000001Z', cursor: null, pending_upper_bound: null };
    expect(afterPage(saved, { hasMore: false, nextCursor: null, scanUpperBound: '2026-01-05T10:00Z' })).toEqual(saved);
    expect(isEarlier('2026-01-05T10:00Z', saved.frontier)).toBe(true);
    expect(isEarlier('2026-01-05T10:00:00.000001999Z', saved.frontier)).toBe(false);
    expect(isEarlier('2026-01-05T10:00Z', null)).toBe(false);
  });

  it('calls a bound future only beyond the clock skew allowed', () => {
    const now = Date.parse('2026-01-05T10:00:00Z');
    expect(isFutureBound('2026-01-05T11:00Z', now)).toBe(false);
    expect(isFutureBound('2026-01-05T11:00:00.001Z', now)).toBe(true);
    expect(isFutureBound('2099-01-01T00:00:00Z', now)).toBe(true);
  });

  it('restarts a refused scan from the saved frontier', () => {
    expect(
      restartScan({ frontier: '2026-01-01T00:00:00Z', cursor: 'stale', pending_upper_bound: '2026-01-02T00:00:00Z' }),
    ).toEqual({
      frontier: '2026-01-01T00:00:00Z',
      cursor: null,
      pending_upper_bound: null,
    });
  });

  it('reads hand-edited or partial saved state without crashing', () => {
    expect(parseStreamState(null)).toEqual(INITIAL_STATE);
    expect(parseStreamState({ frontier: '2026-01-01T00:00:00Z', cursor: 42, extra: true })).toEqual({
      frontier: '2026-01-01T00:00:00Z',
      cursor: null,
      pending_upper_bound: null,
    });
  });
});
