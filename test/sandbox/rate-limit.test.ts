import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '../../schemas/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call } from './sandbox-http.ts';

let sb: Sandbox;
afterEach(() => sb.close());

describe('workspace rate limit (spec part 8)', () => {
  it('allows N requests per 60 s across all keys of a workspace, then 429 rate_limited with Retry-After', async () => {
    let now = 1_000_000;
    sb = await startSandbox({ requestsPerMinute: 3, now: () => now });
    expect((await call(sb, '/public/v2/websites', sb.apiKey)).status).toBe(200);
    now += 10_000;
    expect((await call(sb, '/public/v2/websites', sb.keys.readOnly)).status).toBe(200);
    expect((await call(sb, '/public/v2/websites', sb.keys.rotated)).status).toBe(200);
    now += 5_500;
    const limited = await call(sb, '/public/v2/websites', sb.keys.readOnly);
    expect(limited.status).toBe(429);
    errorEnvelopeSchema.parse(limited.body);
    expect(limited.body.error).toEqual({
      code: 'rate_limited',
      message: 'Rate limit exceeded for this workspace; retry after 45 s.',
    });
    // The oldest request leaves the window 44.5 s from now; Retry-After rounds up.
    expect(limited.headers['retry-after']).toBe('45');
    // Another workspace has its own budget.
    expect((await call(sb, '/public/v2/websites', sb.keys.otherWorkspace)).status).toBe(200);
    // Throttled requests do not consume budget: one slot frees when the first request ages out.
    now += 44_499;
    expect((await call(sb, '/public/v2/websites')).status).toBe(429);
    now += 1;
    expect((await call(sb, '/public/v2/websites')).status).toBe(200);
    expect((await call(sb, '/public/v2/websites')).status).toBe(429);
    expect(sb.stats.throttled).toBe(3);
    expect(sb.stats.requests).toBe(8);
  });

  it('never admits more than N in any 60 s window under a steady stream', async () => {
    let now = 0;
    sb = await startSandbox({ requestsPerMinute: 5, now: () => now });
    const admitted: number[] = [];
    for (let i = 0; i < 60; i++) {
      if ((await call(sb, '/public/v2/websites?limit=1')).status === 200) admitted.push(now);
      now += 3_000;
    }
    for (const t of admitted) expect(admitted.filter((u) => u >= t && u < t + 60_000).length).toBeLessThanOrEqual(5);
    expect(admitted.length).toBe(15); // 180 s of traffic, 5 per minute
  });

  it('counts the OpenAPI document against the workspace limit like every read', async () => {
    sb = await startSandbox({ requestsPerMinute: 1, now: () => 0 });
    expect((await call(sb, '/public/v2/openapi.json')).status).toBe(200);
    expect((await call(sb, '/public/v2/openapi.json')).status).toBe(429);
    expect((await call(sb, '/public/v2/websites')).status).toBe(429);
  });

  it('counts only authenticated requests, and 0 turns the limit off', async () => {
    sb = await startSandbox({ requestsPerMinute: 1, now: () => 0 });
    expect((await call(sb, '/public/v2/websites', null)).status).toBe(401);
    expect((await call(sb, '/public/v2/websites', 'wrong-key')).status).toBe(401);
    expect((await call(sb, '/public/v2/websites')).status).toBe(200);
    expect((await call(sb, '/public/v2/websites')).status).toBe(429);
    await sb.close();
    sb = await startSandbox({ requestsPerMinute: 0, now: () => 0 });
    for (let i = 0; i < 150; i++) expect((await call(sb, '/public/v2/websites?limit=1')).status).toBe(200);
  });
});
