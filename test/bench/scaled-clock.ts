/**
 * A clock that runs `factor` times faster than the wall clock, for the client (its `clock`
 * option) and the sandbox's rate limiter (its `now` option) together: minutes of a binding
 * rate budget pass in seconds, and both ends of the wire agree on what a minute is.
 */
import { abortableSleep, type Clock } from '../../src/client/clock.ts';

export function scaledClock(factor: number): Clock {
  const origin = Date.now();
  const realStart = performance.now();
  const clock: Clock = {
    now: () => origin + (performance.now() - realStart) * factor,
    sleep: (ms, signal) => abortableSleep(signal, (fire) => clock.deadline(ms, fire)),
    deadline: (ms, fire) => {
      const timer = setTimeout(fire, ms / factor);
      return () => clearTimeout(timer);
    },
  };
  return clock;
}
