import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api-error.ts';
import { clientFixture, gaps, type ClientFixture } from './support/client-fixture.ts';
import { apiError, json, reset, stall, truncated, type Responder } from './support/scripted-server.ts';
import { settle, until } from './support/test-clock.ts';

const ok = (requestId = 'req-ok'): Responder => json(200, { data: { id: 'web_1' }, meta: { request_id: requestId } });
const get = (f: ClientFixture) => f.client.request({ method: 'GET', path: '/public/v2/websites/web_1' });

describe('ApiClient retries', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  it('retries a 503 with exponential backoff and full jitter, then returns the success', async () => {
    f = await clientFixture();
    f.server.script(
      apiError(503, 'temporarily_unavailable', 'r1'),
      apiError(503, 'temporarily_unavailable', 'r2'),
      ok('r3'),
    );
    const response = await get(f);
    expect(response).toMatchObject({ status: 200, requestId: 'r3', body: { data: { id: 'web_1' } } });
    expect(f.server.received).toHaveLength(3);
    // random() = 0.5: half of 500 ms, then half of 1,000 ms.
    expect(gaps(f.server)).toEqual([250, 500]);
    expect(f.client.stats).toMatchObject({ requests: 3, retries: 2, throttled: 0, networkErrors: 0 });
  });

  it('keeps every wait inside its full-jitter bound and gives up after maxRetries, naming the last request_id', async () => {
    f = await clientFixture({
      fallback: apiError(500, 'internal_error', 'r-last', {}, 'boom'),
      client: { maxRetries: 3, random: () => 0.9999 },
    });
    const error = await get(f).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      'API server error (500 internal_error, request_id r-last): GET /public/v2/websites/web_1 still failing after 3 retries: boom; try again later',
    );
    expect(error).toMatchObject({ status: 500, code: 'internal_error', requestId: 'r-last', exitCode: 1 });
    expect(f.server.received).toHaveLength(4);
    expect(gaps(f.server)).toEqual([499, 999, 1_999]);
  });

  it('caps the backoff at 30 s', async () => {
    f = await clientFixture({
      fallback: apiError(502, 'internal_error', 'r'),
      client: { maxRetries: 8, random: () => 0.9999 },
    });
    await expect(get(f)).rejects.toThrow('after 8 retries');
    expect(gaps(f.server)).toEqual([499, 999, 1_999, 3_999, 7_999, 15_998, 29_997, 29_997]);
  });

  it('honours Retry-After on a 503 instead of the backoff', async () => {
    f = await clientFixture();
    f.server.script(apiError(503, 'temporarily_unavailable', 'r1', { 'retry-after': '7' }), ok());
    await get(f);
    expect(gaps(f.server)).toEqual([7_000]);
  });

  it.each([
    ['seconds', '12', 12_000],
    ['zero', '0', 0],
    ['an HTTP-date 45 s ahead', new Date(Date.parse('2026-03-01T00:00:45Z')).toUTCString(), 45_000],
    ['garbage, so the default backoff', 'soon', 250],
    ['a negative value, so the default backoff', '-3', 250],
  ])('a 429 with Retry-After as %s pauses for the expected time', async (_what, header, wait) => {
    f = await clientFixture();
    f.server.script(apiError(429, 'rate_limited', 'r1', { 'retry-after': header }), ok());
    await get(f);
    expect(gaps(f.server)).toEqual([wait]);
    expect(f.client.stats).toMatchObject({ retries: 1, throttled: 1 });
  });

  it('waits out a Retry-After longer than 5 minutes that fits in the retry budget, and says so in the log', async () => {
    f = await clientFixture();
    f.server.script(apiError(429, 'rate_limited', 'r1', { 'retry-after': '540' }), ok());
    await get(f);
    expect(gaps(f.server)).toEqual([540_000]);
    const warnings = f.lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.level === 'warn');
    expect(warnings).toContainEqual(
      expect.objectContaining({
        msg: 'the API asked for a long wait before the next attempt; waiting it out',
        path: '/public/v2/websites/web_1',
        wait_s: 540,
        budget_left_s: 600,
      }),
    );
  });

  it('fails a 503 whose Retry-After is longer than the retry budget at once, naming the wait and when to come back', async () => {
    f = await clientFixture();
    f.server.script(apiError(503, 'temporarily_unavailable', 'r1', { 'retry-after': '3599' }), ok());
    const error = await get(f).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      "API server error (503 temporarily_unavailable, request_id r1): GET /public/v2/websites/web_1: the API asked to wait 3599 s (Retry-After) before the next attempt, more than the 600 s left of this request's retry budget (source.retry_budget_seconds: 600); try again after 2026-03-01T00:59:59Z",
    );
    expect(error).toMatchObject({ status: 503, workspaceWide: false });
    expect(f.server.received).toHaveLength(1);
    expect(f.client.stats.retries).toBe(0);
    // The workspace is not paused for it: the next request goes at once.
    await get(f);
    expect(gaps(f.server)).toEqual([0]);
  });

  it('fails a 429 whose Retry-After is longer than the retry budget at once, for the whole workspace, saying when to run again', async () => {
    f = await clientFixture();
    f.server.script(apiError(429, 'rate_limited', 'r1', { 'retry-after': '3599' }));
    const error = await get(f).catch((e: unknown) => e);
    expect((error as ApiError).message).toBe(
      "rate limited (429 rate_limited, request_id r1): GET /public/v2/websites/web_1: the API asked to wait 3599 s (Retry-After) before the next attempt, more than the 600 s left of this request's retry budget (source.retry_budget_seconds: 600); every request of this workspace would wait for it, so the run ends: run again after 2026-03-01T00:59:59Z",
    );
    expect(error).toMatchObject({ status: 429, workspaceWide: true, exitCode: 1 });
    expect(f.server.received).toHaveLength(1);
  });

  it('a wait that no date holds is refused too, and the message says to come back later', async () => {
    f = await clientFixture();
    f.server.script(apiError(503, 'temporarily_unavailable', 'r1', { 'retry-after': '9'.repeat(400) }));
    expect(((await get(f).catch((e: unknown) => e)) as ApiError).message).toBe(
      "API server error (503 temporarily_unavailable, request_id r1): GET /public/v2/websites/web_1: the API asked to wait an unbounded time (Retry-After) before the next attempt, more than the 600 s left of this request's retry budget (source.retry_budget_seconds: 600); try again later",
    );
  });

  it('counts every Retry-After waited against the budget: the second 400 s wait no longer fits', async () => {
    f = await clientFixture();
    const busy = apiError(503, 'temporarily_unavailable', 'r1', { 'retry-after': '400' });
    f.server.script(busy, busy, ok());
    const error = (await get(f).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe(
      "API server error (503 temporarily_unavailable, request_id r1): GET /public/v2/websites/web_1: the API asked to wait 400 s (Retry-After) before the next attempt, more than the 200 s left of this request's retry budget (source.retry_budget_seconds: 600) after 1 retries; try again after 2026-03-01T00:13:20Z",
    );
    expect(gaps(f.server)).toEqual([400_000]);
  });

  it('a server that never answers holds one request no longer than its retry budget: the last attempt is cut at what is left', async () => {
    f = await clientFixture({ fallback: () => {}, client: { timeoutMs: 60_000, retryBudgetMs: 120_000 } });
    const pending = get(f).catch((e: unknown) => e);
    await until(() => f.server.received.length === 1, 'attempt 1');
    f.clock.advance(60_000);
    // The backoff (250 ms) passes by itself; the second attempt gets the 59,750 ms left.
    await until(() => f.server.received.length === 2, 'attempt 2');
    f.clock.advance(59_749);
    await settle();
    expect(f.server.received).toHaveLength(2);
    f.clock.advance(1);
    expect(((await pending) as Error).message).toBe(
      'request timed out (no complete response, request_id none): GET /public/v2/websites/web_1: no complete response within 59750 ms after 1 retries, the 120 s of its retry budget spent (source.retry_budget_seconds); check source.base_url and the network, or try again later',
    );
    expect(f.clock.now() - Date.parse('2026-03-01T00:00:00Z')).toBe(120_000);
  });

  it('does not count time queued for the rate budget against the retry budget', async () => {
    f = await clientFixture({ client: { requestsPerMinute: 1, retryBudgetMs: 10_000 } });
    const busy = apiError(503, 'temporarily_unavailable', 'r1');
    f.server.script(busy, busy, ok());
    await expect(get(f)).resolves.toMatchObject({ status: 200 });
    // The sliding window frees a slot a millisecond after the minute.
    expect(gaps(f.server)).toEqual([60_001, 60_001]);
  });

  it.each([
    [400, 'invalid_request'],
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [409, 'idempotency_conflict'],
    [413, 'payload_too_large'],
    [415, 'unsupported_media_type'],
  ])('never retries a %i', async (status, code) => {
    f = await clientFixture();
    f.server.script(apiError(status, code, 'r1', { 'retry-after': '1' }));
    await expect(get(f)).rejects.toMatchObject({ status, code, requestId: 'r1' });
    expect(f.server.received).toHaveLength(1);
    expect(f.client.stats.retries).toBe(0);
  });

  it('retries a reset connection', async () => {
    f = await clientFixture();
    f.server.script(reset, ok());
    await expect(get(f)).resolves.toMatchObject({ status: 200 });
    expect(f.server.received).toHaveLength(2);
    expect(f.client.stats).toMatchObject({ networkErrors: 1, retries: 1 });
  });

  it('retries a body cut short', async () => {
    f = await clientFixture();
    f.server.script(truncated, ok());
    await expect(get(f)).resolves.toMatchObject({ status: 200 });
    expect(f.client.stats).toMatchObject({ networkErrors: 1, retries: 1 });
  });

  it('retries a success whose body is not JSON, and reports it when it persists', async () => {
    f = await clientFixture({ fallback: json(200, '{"data": [{"id": "web_1"'), client: { maxRetries: 2 } });
    const error = (await get(f).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toMatch(
      /^incomplete response \(no complete response, request_id none\): GET \/public\/v2\/websites\/web_1: the 200 response body is not complete JSON \(24 characters\) after 2 retries; check source.base_url and the network, or try again later$/,
    );
    expect(error.status).toBe(0);
    expect(f.server.received).toHaveLength(3);
  });

  it('times out a body that stalls, then retries', async () => {
    f = await clientFixture({ client: { timeoutMs: 10_000 } });
    f.server.script(stall, ok());
    const pending = get(f);
    await until(() => f.server.received.length === 1, 'the first request');
    await settle();
    f.clock.advance(9_999);
    await settle();
    expect(f.server.received).toHaveLength(1);
    f.clock.advance(1);
    await expect(pending).resolves.toMatchObject({ status: 200 });
    expect(f.server.received).toHaveLength(2);
    expect(f.client.stats).toMatchObject({ networkErrors: 1, retries: 1 });
  });

  it('times out when headers never come, and says so after the last retry', async () => {
    f = await clientFixture({ fallback: () => {}, client: { timeoutMs: 5_000, maxRetries: 1 } });
    const pending = get(f).catch((e: unknown) => e);
    for (const attempt of [1, 2]) {
      await until(() => f.server.received.length === attempt, `attempt ${attempt}`);
      f.clock.advance(5_000);
    }
    expect(((await pending) as Error).message).toBe(
      'request timed out (no complete response, request_id none): GET /public/v2/websites/web_1: no complete response within 5000 ms after 1 retries; check source.base_url and the network, or try again later',
    );
  });

  it("retry: 'never' makes one attempt", async () => {
    f = await clientFixture();
    f.server.script(apiError(503, 'temporarily_unavailable', 'r1'));
    await expect(
      f.client.request({ method: 'GET', path: '/public/v2/websites', retry: 'never' }),
    ).rejects.toMatchObject({ status: 503 });
    expect(f.server.received).toHaveLength(1);
  });

  it('sends the exact same bytes and headers on every attempt of a POST', async () => {
    f = await clientFixture();
    f.server.script(
      apiError(503, 'temporarily_unavailable', 'r1'),
      reset,
      json(202, { data: { id: 'pim_1' }, meta: { request_id: 'r3' } }),
    );
    const body = new TextEncoder().encode('{"items":[{"prompt_text":"héllo wörld"}],"defaults":{}}');
    const response = await f.client.request({
      method: 'POST',
      path: '/public/v2/websites/web_1/prompts:import',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'key-0123456789abcdef' },
      body,
    });
    expect(response).toMatchObject({ status: 202, requestId: 'r3' });
    expect(f.server.received).toHaveLength(3);
    for (const attempt of f.server.received) {
      expect(attempt.method).toBe('POST');
      expect(Buffer.compare(attempt.body, Buffer.from(body))).toBe(0);
      expect(attempt.headers['idempotency-key']).toBe('key-0123456789abcdef');
      expect(attempt.headers['content-type']).toBe('application/json');
    }
  });
});
