import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../src/errors.ts';
import { RateLimiter } from '../../src/client/rate-limiter.ts';

/** The most starts any closed window [t, t + 60 s] holds; it is enough to test windows that begin at a start. */
function busiestWindow(starts: number[]): number {
  let most = 0;
  for (let i = 0; i < starts.length; i++) {
    let j = i;
    while (j < starts.length && starts[j]! <= starts[i]! + 60_000) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

/** Acquires `count` slots at once and records when each was granted. */
async function grantTimes(limiter: RateLimiter, count: number, onGrant?: (i: number) => void): Promise<number[]> {
  const times: number[] = [];
  const all = Array.from({ length: count }, (_, i) =>
    limiter.acquire().then(() => {
      times.push(Date.now());
      onGrant?.(i);
    }),
  );
  await vi.runAllTimersAsync();
  await Promise.all(all);
  return times;
}

describe('RateLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never starts more than the budget in any 60 s window, edges included, over 400 requests', async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 90 });
    const times = await grantTimes(limiter, 400);
    expect(times).toHaveLength(400);
    expect(busiestWindow(times)).toBe(90);
    // The first 90 go at once; the 91st waits until the 1st is more than 60 s old.
    const t0 = times[0]!;
    expect(times[89]).toBe(t0);
    expect(times[90]).toBe(t0 + 60_001);
    // Total time for 400 is the minimum the budget allows: four more full windows after the first.
    expect(times[399]! - t0).toBe(4 * 60_001);
  });

  it('keeps the budget when requests arrive in bursts and trickles', async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 7 });
    const times: number[] = [];
    const pending: Promise<void>[] = [];
    // 300 requests: a burst every 13 s of varying size, so arrivals straddle window edges.
    for (let round = 0; round < 60; round++) {
      for (let i = 0; i < (round % 3) + 4; i++) pending.push(limiter.acquire().then(() => void times.push(Date.now())));
      await vi.advanceTimersByTimeAsync(13_000);
    }
    await vi.runAllTimersAsync();
    await Promise.all(pending);
    expect(times).toHaveLength(300);
    expect(busiestWindow(times)).toBe(7);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('pause() holds every queued request until the pause ends', async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 100 });
    const order: string[] = [];
    const start = Date.now();
    await limiter.acquire();
    limiter.pause(30_000);
    const waiting = [1, 2, 3].map((n) => limiter.acquire().then(() => void order.push(`${n}@${Date.now() - start}`)));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(order).toEqual([]);
    expect(limiter.queued).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all(waiting);
    expect(order).toEqual(['1@30000', '2@30000', '3@30000']);
  });

  it('a later, longer pause extends a running one; a shorter one does not cut it', async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 100 });
    const start = Date.now();
    limiter.pause(10_000);
    let grantedAt: number | undefined;
    const waiting = limiter.acquire().then(() => void (grantedAt = Date.now() - start));
    await vi.advanceTimersByTimeAsync(5_000);
    limiter.pause(20_000); // now ends at 25 s
    limiter.pause(1_000); // ignored
    await vi.advanceTimersByTimeAsync(19_999);
    expect(grantedAt).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(grantedAt).toBe(25_000);
  });

  it('a waiter whose signal aborts leaves the queue at once with the reason; the others keep their turn', async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 1 });
    const start = Date.now();
    await limiter.acquire();
    const stop = new AbortController();
    const reason = new Error('stopped by SIGTERM');
    const stopped = limiter.acquire(stop.signal).catch((error: unknown) => error);
    let grantedAt: number | undefined;
    const other = limiter.acquire().then(() => void (grantedAt = Date.now() - start));
    await vi.advanceTimersByTimeAsync(10_000);
    stop.abort(reason);
    expect(await stopped).toBe(reason);
    expect(limiter.queued).toBe(1);
    await vi.advanceTimersByTimeAsync(50_001);
    await other;
    expect(grantedAt).toBe(60_001);
    await expect(limiter.acquire(stop.signal)).rejects.toBe(reason);
  });

  it('when the last waiter leaves, no timer is left to hold the process open', async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 100 });
    limiter.pause(300_000);
    const stop = new AbortController();
    const stopped = limiter.acquire(stop.signal).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(vi.getTimerCount()).toBe(1);
    stop.abort(new Error('stopped'));
    await stopped;
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(limiter.queued).toBe(0);
  });

  it('grants in arrival order', async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 2 });
    const order: number[] = [];
    await grantTimes(limiter, 6, (i) => order.push(i));
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('refuses a budget that is not a whole number of at least 1', () => {
    expect(() => new RateLimiter({ requestsPerMinute: 0 })).toThrow(ConfigError);
    expect(() => new RateLimiter({ requestsPerMinute: 1.5 })).toThrow(
      'source.requests_per_minute must be a whole number of at least 1 (got 1.5)',
    );
  });
});
