/**
 * The most one request may spend (`source.retry_budget_seconds`, docs/operations.md#time-bounds):
 * wall time from its first attempt, its attempts and its waits between them (`Retry-After`,
 * backoff) included, time queued for the workspace's rate budget excluded (that wait is the
 * rate limit working, not the request failing). The retry layer opens one per request; the
 * limiter layer hands back the queueing, the timeout layer cuts an attempt at what is left.
 */
import type { Clock } from './clock.ts';

export class RetryBudget {
  readonly limitMs: number;
  readonly #clock: Clock;
  readonly #startedAt: number;
  #uncountedMs = 0;

  constructor(limitMs: number, clock: Clock) {
    this.limitMs = limitMs;
    this.#clock = clock;
    this.#startedAt = clock.now();
  }

  /** Time that does not count: waiting in the rate limiter's queue. */
  exclude(ms: number): void {
    this.#uncountedMs += ms;
  }

  /**
   * A wait that counts although the limiter does it: a 429's `Retry-After` pauses the whole
   * limiter, so the request spends it queued.
   */
  charge(ms: number): void {
    this.#uncountedMs -= ms;
  }

  /** What is left, never below 0. */
  leftMs(): number {
    return Math.max(0, this.limitMs - (this.#clock.now() - this.#startedAt - this.#uncountedMs));
  }
}
