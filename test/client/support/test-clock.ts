/**
 * A client Clock for tests: time moves only when the test advances it, or, with
 * `autoAdvance`, jumps straight to the next `sleep` (limiter waits, backoff) once the event loop
 * has had a turn. Deadlines (request timeouts) are never skipped to: a test passes one on
 * purpose with `advance`. Minutes of rate limiting run in milliseconds, with exact times.
 */
import { abortableSleep, type Clock } from '../../../src/client/clock.ts';

interface Timer {
  at: number;
  fire: () => void;
  isSleep: boolean;
}

export class TestClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  readonly #autoAdvance: boolean;
  #scheduled = false;

  constructor(options: { startMs?: number; autoAdvance?: boolean } = {}) {
    this.#now = options.startMs ?? Date.parse('2026-03-01T00:00:00Z');
    this.#autoAdvance = options.autoAdvance ?? false;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return abortableSleep(signal, (fire) => {
      const timer = this.#add(ms, fire, true);
      if (this.#autoAdvance) this.#schedule();
      return () => this.#remove(timer);
    });
  }

  deadline(ms: number, fire: () => void): () => void {
    const timer = this.#add(ms, fire, false);
    return () => this.#remove(timer);
  }

  /** Moves time forward, firing every timer that falls due on the way, in time order. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const next = this.#earliest((t) => t.at <= target);
      if (next === undefined) break;
      this.#remove(next);
      this.#now = Math.max(this.#now, next.at);
      next.fire();
    }
    this.#now = target;
  }

  /** Sleeps and deadlines not yet due. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Sleeps not yet due (waits the code chose), without the deadlines of requests in flight. */
  get sleeping(): number {
    return this.#timers.filter((t) => t.isSleep).length;
  }

  #add(ms: number, fire: () => void, isSleep: boolean): Timer {
    const timer = { at: this.#now + Math.max(0, ms), fire, isSleep };
    this.#timers.push(timer);
    return timer;
  }

  #remove(timer: Timer): void {
    this.#timers = this.#timers.filter((t) => t !== timer);
  }

  #earliest(filter: (t: Timer) => boolean): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.#timers) if (filter(t) && (best === undefined || t.at < best.at)) best = t;
    return best;
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const next = this.#earliest((t) => t.isSleep);
      if (next === undefined) return;
      this.advance(next.at - this.#now);
      if (this.#timers.some((t) => t.isSleep)) this.#schedule();
    });
  }
}

/**
 * Lets the event loop turn (real I/O included, no timers) until `condition` holds: the one
 * `until` of the test suite, re-exported here for the clock's tests. Its limit is wall time,
 * not a count of turns, so a loaded machine cannot make a wait for real I/O fail early.
 */
export { until } from '../../support/until.ts';

/** A number of event-loop turns: enough for loopback I/O that is going to happen to happen. */
export async function settle(turns = 200): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}
