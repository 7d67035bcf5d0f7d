/**
 * The sandbox's data time. It moves only when told to (`advance`), never with the wall
 * clock, so a test or a demo decides exactly when analyses start and commit.
 */
import { DAY, HOUR, MINUTE, formatTimestamp } from './timestamps.ts';

/** How far to move the data clock; the parts add up. */
export interface AdvanceBy {
  days?: number;
  hours?: number;
  minutes?: number;
}

/** The virtual data clock of one sandbox. */
export interface VirtualClock {
  /** Current data time as an ISO timestamp, e.g. `2026-01-01T00:00:00Z`. */
  now(): string;
  /** Current data time in epoch milliseconds. */
  nowMs(): number;
  /** Moves time forward; writes whose start falls in the step begin, and commit when their time comes. */
  advance(by: AdvanceBy): void;
}

export function createVirtualClock(startMs: number): VirtualClock {
  let current = startMs;
  return {
    now: () => formatTimestamp(current),
    nowMs: () => current,
    advance(by) {
      const step = (by.days ?? 0) * DAY + (by.hours ?? 0) * HOUR + (by.minutes ?? 0) * MINUTE;
      if (!Number.isFinite(step) || step < 0)
        throw new RangeError('advance: days, hours and minutes must be non-negative numbers');
      current += step;
    },
  };
}
