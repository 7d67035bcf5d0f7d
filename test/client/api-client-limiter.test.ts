import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.ts';
import { RateLimiter } from '../../src/client/rate-limiter.ts';
import { API_KEY, clientFixture, type ClientFixture } from './support/client-fixture.ts';
import { apiError, json, type Responder } from './support/scripted-server.ts';
import { settle, until } from './support/test-clock.ts';

const ok = json(200, { data: {}, meta: { request_id: 'ok' } });

/** Counts settled promises, so a test moves the clock only once the exchanges it expects are over. */
function tally(promises: Promise<unknown>[]): { readonly settled: number } {
  const counter = { settled: 0 };
  for (const p of promises)
    void p.then(
      () => counter.settled++,
      () => counter.settled++,
    );
  return counter;
}

describe('ApiClient and the shared limiter', () => {
  let f: ClientFixture;
  const clients: ApiClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await f.close();
  });
  const sharing = (limiter: RateLimiter) => {
    const client = new ApiClient({
      baseUrl: f.server.baseUrl,
      apiKey: API_KEY,
      clock: f.clock,
      limiter,
      random: () => 0,
    });
    clients.push(client);
    return client;
  };

  it('a 429 pauses every queued request of the workspace, not just the one refused', async () => {
    // web_a's first attempt is refused with Retry-After: 90; everything else succeeds.
    let refused = false;
    const refuseA: Responder = (res, req) => {
      if (req.url.endsWith('/web_a') && !refused) {
        refused = true;
        return apiError(429, 'rate_limited', 'r-429', { 'retry-after': '90' })(res, req);
      }
      ok(res, req);
    };
    f = await clientFixture({ autoAdvance: false, fallback: refuseA });
    const client = sharing(new RateLimiter({ requestsPerMinute: 3, clock: f.clock }));
    const t0 = f.clock.now();
    const results = ['a', 'b', 'c', 'd', 'e'].map((name) =>
      client.request({ method: 'GET', path: `/public/v2/websites/web_${name}` }),
    );
    const progress = tally(results);
    // a, b, c start at once (budget 3): b and c succeed, a is refused.
    await until(() => progress.settled === 2 && client.stats.throttled === 1, 'b, c and the 429');
    expect(f.server.received.map((r) => r.url).sort()).toEqual(
      ['a', 'b', 'c'].map((n) => `/public/v2/websites/web_${n}`),
    );
    // Without the pause, d and e would start when the budget frees, 60.001 s in.
    f.clock.advance(60_001);
    await settle();
    expect(f.server.received).toHaveLength(3);
    f.clock.advance(90_000 - 60_001 - 1);
    await settle();
    expect(f.server.received).toHaveLength(3);
    f.clock.advance(1);
    await Promise.all(results);
    const late = f.server.received.slice(3);
    expect(late.map((r) => r.url).sort()).toEqual(['a', 'd', 'e'].map((n) => `/public/v2/websites/web_${n}`));
    for (const r of late) expect(r.at - t0).toBe(90_000);
    expect(client.stats).toMatchObject({ requests: 6, retries: 1, throttled: 1, networkErrors: 0 });
    // d and e waited 90 s each for their first slot; a's retry waited 90 s after its 429.
    expect(client.stats.rateLimitWaitMs).toBe(3 * 90_000);
  });

  it('two clients on one limiter share its budget', async () => {
    f = await clientFixture({ autoAdvance: false, fallback: ok });
    const shared = new RateLimiter({ requestsPerMinute: 2, clock: f.clock });
    const [one, two] = [sharing(shared), sharing(shared)];
    const t0 = f.clock.now();
    const all = [0, 1, 2, 3].flatMap((i) =>
      [one!, two!].map((c) => c.request({ method: 'GET', path: `/public/v2/websites/web_${i}` })),
    );
    const progress = tally(all);
    for (let window = 0; window < 4; window++) {
      await until(() => progress.settled === 2 + 2 * window, `window ${window}`);
      await settle();
      expect(f.server.received).toHaveLength(2 + 2 * window);
      f.clock.advance(60_001);
    }
    await Promise.all(all);
    expect(f.server.received.map((r) => r.at - t0)).toEqual([0, 0, 60_001, 60_001, 120_002, 120_002, 180_003, 180_003]);
    expect(one!.stats.requests + two!.stats.requests).toBe(8);
  });
});
