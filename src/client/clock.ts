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
   * backing off before a retry). When `signal` aborts first, rejects at once with its reason
   * and drops the timer, so a stopped run neither waits nor keeps the process alive.
   * @example await clock.sleep(1_500, stopSignal)
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
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
  sleep: (ms, signal) => abortableSleep(signal, (fire) => systemClock.deadline(ms, fire)),
  deadline: (ms, fire) => {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};

/**
 * `Clock.sleep` on top of a clock's own timer (`schedule` starts it and returns its cancel):
 * resolves when it fires, or rejects with `signal.reason` as soon as the signal aborts.
 */
export function abortableSleep(
  signal: AbortSignal | undefined,
  schedule: (fire: () => void) => () => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      cancel();
      reject(signal!.reason);
    };
    const cancel = schedule(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
