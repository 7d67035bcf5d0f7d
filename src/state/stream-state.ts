/**
 * How a scan's saved position moves (docs/architecture.md#state-rules). Pure functions, so
 * every rule about frontiers is in one place and tested without I/O.
 *
 * - Mid-scan, after a durable page: keep the frontier, save the next cursor and the scan's
 *   `scan_upper_bound` as pending.
 * - At the end of a scan (`has_more: false`, or `next_cursor: null`): the pending bound
 *   becomes the frontier, verbatim. A scan that never reported a bound leaves the frontier
 *   where it was.
 * - A broken scan (`has_more: true` without a cursor) cannot be finished: the frontier stays,
 *   so the next run reads the whole scan again.
 * - The frontier never moves backwards: a scan whose bound is earlier than the saved frontier
 *   leaves it where it was (the engine warns). A bound later than the local clock plus
 *   `BOUND_CLOCK_SKEW_MS` is refused before it is saved (`isFutureBound`): sent back as
 *   `updated_since`, it would skip every row published until then.
 */
import { microsecondTimestamp } from '../destination/timestamp-micros.ts';
import type { StreamState } from './state-entry.ts';

/** How far a `scan_upper_bound` may lie ahead of the local clock (clock skew between the API and this machine). */
export const BOUND_CLOCK_SKEW_MS = 60 * 60_000;

export const INITIAL_STATE: StreamState = { frontier: null, cursor: null, pending_upper_bound: null };

export interface PageOutcome {
  /** `meta.has_more`: false ends the scan whatever the cursor says. */
  readonly hasMore: boolean;
  /** `meta.next_cursor`: null ends the scan too (a broken one when `hasMore` is true). */
  readonly nextCursor: string | null;
  /** `meta.scan_upper_bound` exactly as the API sent it, if it sent one. */
  readonly scanUpperBound: string | undefined;
}

/** The state to save once a page's rows are durable. */
export function afterPage(state: StreamState, page: PageOutcome): StreamState {
  const pending = page.scanUpperBound ?? state.pending_upper_bound;
  if (page.hasMore && page.nextCursor !== null) {
    return { frontier: state.frontier, cursor: page.nextCursor, pending_upper_bound: pending };
  }
  if (page.hasMore) return restartScan(state);
  const frontier = pending !== null && !isEarlier(pending, state.frontier) ? pending : state.frontier;
  return { frontier, cursor: null, pending_upper_bound: null };
}

/** Whether `bound` lies before `frontier` (compared at the microsecond, as stored); false without a frontier. */
export function isEarlier(bound: string, frontier: string | null): boolean {
  return frontier !== null && microsecondTimestamp(bound) < microsecondTimestamp(frontier);
}

/** Whether `bound` lies further ahead of `nowMs` than clock skew explains. */
export function isFutureBound(bound: string, nowMs: number): boolean {
  return Date.parse(microsecondTimestamp(bound)) > nowMs + BOUND_CLOCK_SKEW_MS;
}

/** The state a scan restarts from when its saved cursor is refused (`400 invalid_cursor`). */
export function restartScan(state: StreamState): StreamState {
  return { frontier: state.frontier, cursor: null, pending_upper_bound: null };
}

/** Reads a saved state defensively: a hand-edited or older entry never crashes a run. */
export function parseStreamState(value: unknown): StreamState {
  const v = (value ?? {}) as Record<string, unknown>;
  const text = (x: unknown) => (typeof x === 'string' && x.length > 0 ? x : null);
  return { frontier: text(v.frontier), cursor: text(v.cursor), pending_upper_bound: text(v.pending_upper_bound) };
}
