import { describe, expect, it } from 'vitest';
import { RetryPolicy } from '../../src/client/retry-policy.ts';

const status = (code: number, retryAfterMs?: number) => ({ kind: 'status' as const, status: code, retryAfterMs });
/** What is left of a fresh request's default retry budget. */
const LEFT = 600_000;

describe('RetryPolicy', () => {
  it('backs off exponentially with full jitter between 0 and min(30 s, 500 ms * 2^n)', () => {
    const top = new RetryPolicy({ random: () => 0.999999 });
    const bottom = new RetryPolicy({ random: () => 0 });
    const ceilings = [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000];
    ceilings.forEach((ceiling, n) => {
      expect(top.backoffMs(n)).toBe(Math.floor(0.999999 * ceiling));
      expect(bottom.backoffMs(n)).toBe(0);
    });
    expect(new RetryPolicy({ random: () => 0.5 }).backoffMs(3)).toBe(2_000);
  });

  it('retries 500, 502, 503, 504 and network failures up to maxRetries', () => {
    const policy = new RetryPolicy({ maxRetries: 2, random: () => 0.5 });
    for (const failure of [status(500), status(502), status(503), status(504), { kind: 'network' as const }]) {
      expect(policy.decide(0, failure, LEFT)).toEqual({ retry: true, delayMs: 250, pauseLimiter: false });
      expect(policy.decide(1, failure, LEFT)).toEqual({ retry: true, delayMs: 500, pauseLimiter: false });
      expect(policy.decide(2, failure, LEFT).retry).toBe(false);
    }
  });

  it('never retries 400, 401, 403, 404, 409, 413, 415', () => {
    const policy = new RetryPolicy();
    for (const code of [400, 401, 403, 404, 409, 413, 415]) {
      expect(policy.decide(0, status(code, 1_000), LEFT)).toEqual({ retry: false, delayMs: 0, pauseLimiter: false });
    }
  });

  it('never retries an untrusted TLS certificate: the same one comes back every time', () => {
    expect(new RetryPolicy().decide(0, { kind: 'certificate' }, LEFT)).toEqual({
      retry: false,
      delayMs: 0,
      pauseLimiter: false,
    });
  });

  it('a 429 pauses the limiter for Retry-After while it fits in what is left of the budget; a longer wait is refused, never shortened', () => {
    const policy = new RetryPolicy({ random: () => 0.5 });
    expect(policy.decide(0, status(429, 12_000), 60_001)).toEqual({ retry: true, delayMs: 12_000, pauseLimiter: true });
    expect(policy.decide(0, status(429, 60_000), 60_001)).toEqual({ retry: true, delayMs: 60_000, pauseLimiter: true });
    expect(policy.decide(0, status(429, 60_001), 60_000)).toEqual({
      retry: false,
      delayMs: 60_001,
      pauseLimiter: false,
      waitRefused: true,
    });
    expect(policy.decide(0, status(503, 3_599_000), LEFT)).toEqual({
      retry: false,
      delayMs: 3_599_000,
      pauseLimiter: false,
      waitRefused: true,
    });
    expect(policy.decide(0, status(429, Infinity), LEFT)).toEqual({
      retry: false,
      delayMs: Infinity,
      pauseLimiter: false,
      waitRefused: true,
    });
    expect(policy.decide(0, status(429, 0), LEFT)).toEqual({ retry: true, delayMs: 0, pauseLimiter: true });
    // No usable Retry-After: the default backoff.
    expect(policy.decide(2, status(429), LEFT)).toEqual({ retry: true, delayMs: 1_000, pauseLimiter: true });
  });

  it('ends the retries when the backoff does not fit in what is left of the budget', () => {
    const policy = new RetryPolicy({ random: () => 0.5 });
    expect(policy.decide(3, { kind: 'network' }, 2_001)).toEqual({ retry: true, delayMs: 2_000, pauseLimiter: false });
    expect(policy.decide(3, { kind: 'network' }, 2_000)).toEqual({
      retry: false,
      delayMs: 2_000,
      pauseLimiter: false,
      budgetSpent: true,
    });
    expect(policy.decide(0, status(503), 0)).toEqual({
      retry: false,
      delayMs: 250,
      pauseLimiter: false,
      budgetSpent: true,
    });
  });

  it('honours Retry-After on a 503 instead of the backoff', () => {
    const policy = new RetryPolicy({ random: () => 0 });
    expect(policy.decide(0, status(503, 7_000), LEFT)).toEqual({ retry: true, delayMs: 7_000, pauseLimiter: false });
  });

  it('still asks for a limiter pause on a 429 once retries are used up', () => {
    const policy = new RetryPolicy({ maxRetries: 0 });
    expect(policy.decide(0, status(429, 5_000), LEFT)).toEqual({ retry: false, delayMs: 5_000, pauseLimiter: true });
  });
});
