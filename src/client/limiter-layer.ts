/**
 * Every attempt, retries included, takes a slot of the workspace's shared budget first; a
 * stopped run (`request.signal`) stops waiting for one. The time queued is not the request's
 * to answer for: it does not count against its retry budget.
 */
import type { ClientStats } from './client-stats.ts';
import type { Clock } from './clock.ts';
import type { Send } from './http-exchange.ts';
import type { RateLimiter } from './rate-limiter.ts';

export function withLimiter(next: Send, limiter: RateLimiter, stats: ClientStats, clock: Clock): Send {
  return async (request) => {
    const queuedAt = clock.now();
    await limiter.acquire(request.signal);
    const queuedMs = clock.now() - queuedAt;
    stats.rateLimitWaitMs += queuedMs;
    request.budget?.exclude(queuedMs);
    stats.requests++;
    return next(request);
  };
}
