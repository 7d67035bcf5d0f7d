/**
 * A clock that runs `factor` times faster than the wall clock, for the client (its `clock`
 * option) and the sandbox's rate limiter (its `now` option) together: minutes of a binding
 * rate budget pass in seconds, and both ends of the wire agree on what a minute is.
 */
import type { Clock } from '../../src/client/clock.ts';

export function scaledClock(factor: number): Clock {
  const origin = Date.now();
  const realStart = performance.now();
  return {
    now: () => origin + (performance.now() - realStart) * factor,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / factor)),
    deadline: (ms, fire) => {
      const timer = setTimeout(fire, ms / factor);
      return () => clearTimeout(timer);
    },
  };
}
