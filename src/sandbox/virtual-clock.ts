/**
 * The sandbox's data time, in one of two modes:
 * - pinned (`startSandbox({ start })`, `aivis sandbox --clock T`): it stands at its start and
 *   moves only when told to (`advance`), so a test, the demo or a doc decides exactly when
 *   analyses start and commit, and their output never varies;
 * - following (`aivis sandbox` by default): it reads this machine's clock, to the second, so
 *   the data is as old as it says and `aivis status` judges real ages. It cannot be advanced:
 *   data time ahead of the machine's clock gives `scan_upper_bound`s in the future, which
 *   aivis refuses (docs/sandbox.md).
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
  /** True when data time is this machine's clock rather than a pinned one. */
  readonly followsWallClock: boolean;
  /** Current data time as an ISO timestamp, e.g. `2026-01-01T00:00:00Z`. */
  now(): string;
  /** Current data time in epoch milliseconds. */
  nowMs(): number;
  /** Moves a pinned clock forward; writes whose start falls in the step begin, and commit when their time comes. */
  advance(by: AdvanceBy): void;
}

/** A clock that stands at `startMs` until advanced. */
export function pinnedClock(startMs: number): VirtualClock {
  let current = startMs;
  return {
    followsWallClock: false,
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

/** A clock that reads `wallMs` (epoch ms, e.g. `Date.now`) truncated to the whole second. */
export function followingClock(wallMs: () => number): VirtualClock {
  const nowMs = () => Math.floor(wallMs() / 1000) * 1000;
  return {
    followsWallClock: true,
    now: () => formatTimestamp(nowMs()),
    nowMs,
    advance() {
      throw new RangeError(
        "advance: this sandbox's data time follows this machine's clock (new analyses arrive as time passes); start it with a pinned clock (aivis sandbox --clock 2026-01-01T00:00:00Z) to move data time by hand",
      );
    },
  };
}
