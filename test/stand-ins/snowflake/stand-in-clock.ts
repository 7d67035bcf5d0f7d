/**
 * The stand-in's own time, moved by tests instead of waited for: Snowflake's timed behaviour
 * (a lock wait's LOCK_TIMEOUT, the abort of an idle blocking transaction, a session's idle
 * expiry, token validity) runs on it, so a test of hours takes milliseconds. It starts at the
 * real time and stands still until `advance`.
 */

interface Timer {
  readonly at: number;
  readonly run: () => Promise<void> | void;
}

export class StandInClock {
  #now = Date.now();
  readonly #timers = new Set<Timer>();

  now(): number {
    return this.#now;
  }

  /** Runs `run` once the clock reaches `at` (ms); returns the cancel function. */
  at(at: number, run: () => Promise<void> | void): () => void {
    const timer = { at, run };
    this.#timers.add(timer);
    return () => this.#timers.delete(timer);
  }

  /** Moves time forward by `ms`, running what falls due in time order (each awaited). */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms;
    for (;;) {
      const next = [...this.#timers].filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.#timers.delete(next);
      this.#now = Math.max(this.#now, next.at);
      await next.run();
    }
    this.#now = until;
  }
}
