/**
 * Which failures are worth another attempt, and how long to wait first
 * (docs/architecture.md#api-client).
 *
 * - 429: wait `Retry-After` with the whole limiter paused, so no other request of the
 *   workspace burns the same exhausted quota.
 * - 500/502/503/504 and network failures (reset, timeout, truncated body): `Retry-After` when
 *   the server sent one, else exponential backoff with full jitter (a uniform draw between 0 and
 *   `min(cap, base * 2^retry)`), which spreads clients that failed together.
 * - Every wait must fit in what is left of the request's retry budget (retry-budget.ts). A
 *   server asking for longer gets no retry: the request fails at once saying so, rather than
 *   retrying early into a refusal or holding a scheduled run for hours. A backoff that does not
 *   fit ends the retries the same way: the budget is spent.
 * - Anything else (400, 401, 403, 404, 409, 413, 415, ...) is an answer, not a hiccup: no
 *   retry; nor is an untrusted TLS certificate.
 */

/** What went wrong with one attempt. */
export type AttemptFailure =
  | { kind: 'status'; status: number; retryAfterMs: number | undefined }
  | { kind: 'network' }
  /** The server's TLS is not what was asked for (an untrusted certificate, no TLS at all): a fix of the trust store or base URL, not of time. */
  | { kind: 'certificate' };

/**
 * `retry`: whether to try again. `delayMs` and `pauseLimiter` are filled for every retryable
 * failure, even when retries are used up: a 429 still pauses the workspace's limiter then.
 * `waitRefused`: the server asked for a wait (`delayMs`) longer than what is left of the
 * request's retry budget, so no retry. `budgetSpent`: the backoff does not fit in what is left.
 */
export interface RetryDecision {
  retry: boolean;
  delayMs: number;
  pauseLimiter: boolean;
  waitRefused?: true;
  budgetSpent?: true;
}

/** A server-requested wait longer than this is honoured with a warning in the log. */
export const LONG_WAIT_MS = 300_000;

/** Bounds of the retries; the defaults are the ones docs/architecture.md#api-client gives. */
export interface RetryPolicyOptions {
  /** Retries after the first attempt; default 6. */
  maxRetries?: number;
  /** First backoff ceiling; default 500 ms. */
  baseDelayMs?: number;
  /** Backoff ceiling; default 30 s. */
  maxDelayMs?: number;
  /** Uniform draw in [0, 1) for the jitter; tests inject a fixed one. */
  random?: () => number;
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

export class RetryPolicy {
  readonly maxRetries: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #random: () => number;

  constructor(options: RetryPolicyOptions = {}) {
    this.maxRetries = options.maxRetries ?? 6;
    this.#baseDelayMs = options.baseDelayMs ?? 500;
    this.#maxDelayMs = options.maxDelayMs ?? 30_000;
    this.#random = options.random ?? Math.random;
  }

  /**
   * @param retriesSoFar retries already made for this request (0 after the first attempt)
   * @param leftMs what is left of the request's retry budget
   * @example policy.decide(0, { kind: 'status', status: 503, retryAfterMs: undefined }, 600_000) // { retry: true, delayMs: 0..500, pauseLimiter: false }
   */
  decide(retriesSoFar: number, failure: AttemptFailure, leftMs: number): RetryDecision {
    if (failure.kind === 'certificate' || (failure.kind === 'status' && !RETRIED_STATUSES.has(failure.status))) {
      return { retry: false, delayMs: 0, pauseLimiter: false };
    }
    const serverWait = failure.kind === 'status' ? failure.retryAfterMs : undefined;
    if (serverWait !== undefined && serverWait > leftMs)
      return { retry: false, delayMs: serverWait, pauseLimiter: false, waitRefused: true };
    const delayMs = serverWait ?? this.backoffMs(retriesSoFar);
    const pauseLimiter = failure.kind === 'status' && failure.status === 429;
    if (retriesSoFar >= this.maxRetries) return { retry: false, delayMs, pauseLimiter };
    // A wait that leaves no time for the attempt after it is not worth making.
    if (delayMs >= leftMs) return { retry: false, delayMs, pauseLimiter, budgetSpent: true };
    return { retry: true, delayMs, pauseLimiter };
  }

  /** Full jitter: uniform in [0, min(cap, base * 2^retry)). */
  backoffMs(retriesSoFar: number): number {
    const ceiling = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** retriesSoFar);
    return Math.floor(this.#random() * ceiling);
  }
}
