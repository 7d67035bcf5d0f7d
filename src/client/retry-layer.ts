/**
 * Repeats an attempt the retry policy calls transient, waiting as it says: a 429 pauses the
 * whole limiter (every queued request of the workspace waits, not just this one); other
 * retries sleep on their own. Each request gets a retry budget (retry-budget.ts) that its
 * attempts and waits must fit in. Gives back the last response or NetworkError, stamped with
 * the number of retries made (and why they ended, when the budget ended them), for the client
 * to turn into an ApiError. A stopped run (`request.signal`) ends the sleep at once with the
 * stop's reason.
 */
import type { Logger } from '../log/logger.ts';
import type { ClientStats } from './client-stats.ts';
import type { Clock } from './clock.ts';
import type { HttpResponse, Send } from './http-exchange.ts';
import { NetworkError } from './network-error.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { parseRetryAfter } from './retry-after.ts';
import { RetryBudget } from './retry-budget.ts';
import { LONG_WAIT_MS, type AttemptFailure, type RetryPolicy } from './retry-policy.ts';

/** What the retry layer decides with (policy, budget), waits on (limiter, clock) and reports to (stats, logger). */
export interface RetryLayerDeps {
  policy: RetryPolicy;
  /** The most one request may spend, from its first attempt (`source.retry_budget_seconds`). */
  budgetMs: number;
  limiter: RateLimiter;
  stats: ClientStats;
  clock: Clock;
  logger: Logger;
}

export function withRetry(next: Send, deps: RetryLayerDeps): Send {
  const { policy, budgetMs, limiter, stats, clock, logger } = deps;
  return async (original) => {
    const budget = new RetryBudget(budgetMs, clock);
    const request = { ...original, budget };
    for (let retries = 0; ; retries++) {
      let outcome: HttpResponse | NetworkError;
      let failure: AttemptFailure;
      try {
        outcome = await next(request);
        if (outcome.status < 400) return { ...outcome, retries };
        failure = {
          kind: 'status',
          status: outcome.status,
          retryAfterMs: parseRetryAfter(outcome.headers['retry-after'], clock.now()),
        };
        if (outcome.status === 429) stats.throttled++;
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error;
        outcome = error;
        failure = { kind: error.failure === 'certificate' || error.failure === 'not_tls' ? 'certificate' : 'network' };
        stats.networkErrors++;
      }
      const leftMs = budget.leftMs();
      const decision = policy.decide(retries, failure, leftMs);
      if (decision.pauseLimiter) limiter.pause(decision.delayMs);
      if (!decision.retry || request.retry === 'never') {
        const ended = decision.budgetSpent ? { budgetSpentMs: budgetMs } : {};
        if (outcome instanceof NetworkError) {
          Object.assign(outcome, { retries, ...ended });
          throw outcome;
        }
        const refused = decision.waitRefused
          ? { refusedWait: { waitMs: decision.delayMs, leftMs, budgetMs, until: clock.now() + decision.delayMs } }
          : ended;
        return { ...outcome, retries, ...refused };
      }
      stats.retries++;
      logger.warn('retrying API request', {
        method: request.method,
        path: request.path,
        ...(outcome instanceof NetworkError
          ? { error: outcome.message }
          : { status: outcome.status, request_id: outcome.requestId }),
        retry: retries + 1,
        max_retries: policy.maxRetries,
        wait_ms: decision.delayMs,
      });
      if (decision.delayMs > LONG_WAIT_MS) {
        logger.warn('the API asked for a long wait before the next attempt; waiting it out', {
          method: request.method,
          path: request.path,
          wait_s: Math.ceil(decision.delayMs / 1000),
          budget_left_s: Math.floor(leftMs / 1000),
        });
      }
      // The paused limiter does the waiting for a 429 (its queue time is not counted, this wait is);
      // sleeping here as well would wait twice.
      if (decision.pauseLimiter) budget.charge(decision.delayMs);
      else await clock.sleep(decision.delayMs, request.signal);
    }
  };
}
