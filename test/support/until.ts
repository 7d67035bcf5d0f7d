/**
 * Waits for something another process or the event loop does (a row committed, a request
 * received), no fixed sleeps: checks at once, then after pauses that double from 1 ms up to
 * `MAX_PAUSE_MS`, so a wait neither spins on every event-loop turn nor lags what it awaits by
 * much. The pauses and the deadline use `node:timers/promises` and `AbortSignal.timeout`,
 * which `vi.useFakeTimers()` leaves real: a test on a fake clock can still wait for real I/O.
 */
import { setTimeout as pause } from 'node:timers/promises';

const MAX_PAUSE_MS = 20;

/** Resolves once `condition` holds; past `limitMs` of wall time, fails naming `what` never happened. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 120_000,
): Promise<void> {
  const deadline = AbortSignal.timeout(limitMs);
  for (let wait = 1; !(await condition()); wait = Math.min(wait * 2, MAX_PAUSE_MS)) {
    if (deadline.aborted) throw new Error(`gave up after ${limitMs} ms waiting for ${what}`);
    await pause(wait);
  }
}
