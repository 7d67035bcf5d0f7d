/**
 * One request budget per workspace (docs/architecture.md#api-client): every call of every
 * client that shares this limiter (reads, receipt polls, imports) takes a slot first.
 *
 * A sliding log of start times, not a token bucket or fixed windows: the API counts requests
 * per minute per workspace, and any 60 s window, its edges included, must hold at most
 * `requestsPerMinute` starts. Fixed windows would allow twice the budget across a window edge.
 */
import { DEFAULT_REQUESTS_PER_MINUTE } from '../../schemas/config.ts';
import { ConfigError } from '../errors.ts';
import { systemClock, type Clock } from './clock.ts';

const WINDOW_MS = 60_000;

/** How to build a limiter; share the instance, not the options, between the clients of one workspace. */
export interface RateLimiterOptions {
  /** Budget per 60 s window; default `DEFAULT_REQUESTS_PER_MINUTE` (the config's default). */
  requestsPerMinute?: number;
  clock?: Clock;
}

export class RateLimiter {
  readonly requestsPerMinute: number;
  readonly #clock: Clock;
  /** Start times still inside the window, oldest first; never longer than the budget. */
  readonly #starts: number[] = [];
  /** Callers waiting for a slot, first come first served. */
  readonly #waiting: Array<() => void> = [];
  #pausedUntil = 0;
  #pumping = false;
  /** Ends the pump's current sleep early (its last waiter left). */
  #wake: AbortController | undefined;

  constructor(options: RateLimiterOptions = {}) {
    const rpm = options.requestsPerMinute ?? DEFAULT_REQUESTS_PER_MINUTE;
    if (!Number.isInteger(rpm) || rpm < 1) {
      throw new ConfigError(`source.requests_per_minute must be a whole number of at least 1 (got ${String(rpm)})`);
    }
    this.requestsPerMinute = rpm;
    this.#clock = options.clock ?? systemClock;
  }

  /**
   * Resolves when the caller may start one request, and counts that start. When `signal`
   * aborts first, the caller leaves the queue and the promise rejects with the signal's reason.
   * @example await limiter.acquire(stopSignal); await send(request);
   */
  acquire(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        this.#waiting.splice(this.#waiting.indexOf(grant), 1);
        // Nobody left to wait for: the pump's sleep must not hold the process open.
        if (this.#waiting.length === 0) this.#wake?.abort();
        reject(signal!.reason);
      };
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(grant);
      void this.#pump();
    });
  }

  /**
   * Holds every queued and future request for `ms` (a 429's `Retry-After`). Overlapping pauses
   * end at the latest of their ends; a shorter pause never cuts a longer one.
   */
  pause(ms: number): void {
    if (ms > 0) this.#pausedUntil = Math.max(this.#pausedUntil, this.#clock.now() + ms);
  }

  /** Requests waiting for a slot right now (the progress display may show it). */
  get queued(): number {
    return this.#waiting.length;
  }

  /** Grants slots in order; one loop per limiter, so two waiters never race for one slot. */
  async #pump(): Promise<void> {
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      while (this.#waiting.length > 0) {
        const wait = this.#waitMs();
        if (wait > 0) {
          // A pause may arrive during the sleep, or every waiter may leave: the loop measures
          // again when it wakes.
          this.#wake = new AbortController();
          await this.#clock.sleep(wait, this.#wake.signal).catch(() => {});
          this.#wake = undefined;
          continue;
        }
        this.#starts.push(this.#clock.now());
        this.#waiting.shift()?.();
      }
    } finally {
      this.#pumping = false;
    }
  }

  /** How long until a start would keep every closed 60 s window within the budget. */
  #waitMs(): number {
    const now = this.#clock.now();
    while (this.#starts.length > 0 && this.#starts[0]! < now - WINDOW_MS) this.#starts.shift();
    // The window [now - 60 s, now] includes both edges, so a full log frees its oldest slot
    // one millisecond after that start turns 60 s old.
    const budgetFreeAt = this.#starts.length >= this.requestsPerMinute ? this.#starts[0]! + WINDOW_MS + 1 : now;
    return Math.max(budgetFreeAt, this.#pausedUntil) - now;
  }
}
