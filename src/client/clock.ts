/**
 * Time as the client sees it. Injected so a test can run minutes of rate limiting and backoff
 * in milliseconds of real time; the default is the process clock (which `vi.useFakeTimers()`
 * also controls).
 */

/** The three things the client does with time. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Resolves after `ms`: time the client decides to let pass (waiting for the rate budget,
   * backing off before a retry).
   * @example await clock.sleep(1_500)
   */
  sleep(ms: number): Promise<void>;
  /**
   * Calls `fire` once `ms` have passed unless the returned cancel function runs first: a
   * deadline on work in progress (a request's timeout). Kept apart from `sleep` because a test
   * clock may skip ahead over sleeps but must only pass a deadline when told to.
   * @example const cancel = clock.deadline(60_000, () => controller.abort()); ...; cancel();
   */
  deadline(ms: number, fire: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  deadline: (ms, fire) => {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};
