/**
 * The client against the project's own V2 sandbox over loopback: every read endpoint through
 * `getResource`/`paginate`, compared row for row with the sandbox's ground truth; auth errors;
 * the sandbox's faults and its real 100/min workspace limit, on the test clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  citationSchema,
  historyPointSchema,
  mentionSchema,
  snapshotDataSchema,
  snapshotMetaSchema,
  websiteSchema,
} from '../../schemas/index.ts';
import { ApiClient, type ApiClientOptions, type Page } from '../../src/client/api-client.ts';
import { ApiError } from '../../src/client/api-error.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { settle, TestClock, until } from './support/test-clock.ts';

let sb: Sandbox;
let clock: TestClock;
const clients: ApiClient[] = [];

beforeEach(async () => {
  clock = new TestClock({ autoAdvance: true });
  // Edge values (counts up to 2^53 - 1, nulls, odd text) must come through the client exactly.
  sb = await startSandbox({ websites: 12, seed: 7, now: () => clock.now(), variants: ['edge_values'] });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await sb.close();
});

function client(options: Partial<ApiClientOptions> = {}): ApiClient {
  const c = new ApiClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, clock, random: () => 0.5, ...options });
  clients.push(c);
  return c;
}

async function allRecords<T>(
  pages: AsyncIterable<Page<T>>,
): Promise<{ values: T[]; raws: unknown[]; pages: Page<T>[] }> {
  const out = { values: [] as T[], raws: [] as unknown[], pages: [] as Page<T>[] };
  for await (const page of pages) {
    out.pages.push(page);
    for (const record of page.records) {
      if (!record.ok) throw new Error(`sandbox record rejected: ${record.error}`);
      out.values.push(record.value);
      out.raws.push(record.raw);
    }
  }
  return out;
}

const measured = () =>
  sb.truth
    .websites()
    .filter((w) => w.last_analysis_at !== null)
    .map((w) => w.id as string);
const unmeasured = () =>
  sb.truth
    .websites()
    .filter((w) => w.last_analysis_at === null)
    .map((w) => w.id as string);

describe('ApiClient against the sandbox: every read endpoint', () => {
  it('lists every website over several pages, row for row', async () => {
    const { raws, pages } = await allRecords(
      client().paginate({ path: '/public/v2/websites', query: { limit: '5' }, recordSchema: websiteSchema }),
    );
    expect(raws).toEqual(sb.truth.websites());
    expect(raws).toHaveLength(12);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.at(-1)!.nextCursor).toBeNull();
    for (const page of pages) expect(page.requestId).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
  });

  it('gets one website', async () => {
    const [id] = measured();
    const got = await client().getResource(`/public/v2/websites/${id}`, {}, websiteSchema);
    expect(got.data).toEqual(sb.truth.websites().find((w) => w.id === id));
    expect(got.requestId).toBe((got.raw as { meta: { request_id: string } }).meta.request_id);
  });

  it('gets the latest snapshot with providers and competitors', async () => {
    const [id] = measured();
    const got = await client().getResource(
      `/public/v2/websites/${id}/analytics`,
      { include: 'providers,competitors' },
      snapshotDataSchema,
      snapshotMetaSchema,
    );
    const truth = sb.truth.snapshot(id!, ['providers', 'competitors'])!;
    expect(got.data).toEqual(truth.data);
    const { request_id: _, ...meta } = got.meta as Record<string, unknown>;
    expect(meta).toEqual(truth.meta);
  });

  it('a website not measured yet answers 404 not_found, with its request_id', async () => {
    const [id] = unmeasured();
    const error = (await client()
      .getResource(`/public/v2/websites/${id}/analytics`, {}, snapshotDataSchema)
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect(error.message).toMatch(
      new RegExp(
        `^not found \\(404 not_found, request_id ${error.requestId}\\): GET /public/v2/websites/${id}/analytics: `,
      ),
    );
  });

  it.each([
    ['analytics/history', historyPointSchema, (id: string) => sb.truth.history(id)],
    ['mentions', mentionSchema, (id: string) => sb.truth.mentions(id)],
    ['citations', citationSchema, (id: string) => sb.truth.citations(id)],
  ] as [string, z.ZodType, (id: string) => Iterable<Record<string, unknown>>][])(
    'pages through %s row for row',
    async (feed, schema, truth) => {
      const [id] = measured();
      const { raws, pages } = await allRecords(
        client().paginate({ path: `/public/v2/websites/${id}/${feed}`, query: { limit: '4' }, recordSchema: schema }),
      );
      expect(raws).toEqual([...truth(id!)]);
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.at(-1)!.scanUpperBound).toMatch(/Z$/);
    },
  );

  it('keeps a filter on every page of a scan (the sandbox refuses a cursor sent with other filters)', async () => {
    const [id] = measured();
    const { raws } = await allRecords(
      client().paginate({
        path: `/public/v2/websites/${id}/mentions`,
        query: { limit: '3', provider: 'gemini' },
        recordSchema: mentionSchema,
      }),
    );
    expect(raws).toEqual([...sb.truth.mentions(id!)].filter((m) => m.provider === 'gemini'));
  });

  it('serves the OpenAPI document through request()', async () => {
    const response = await client().request({ method: 'GET', path: '/public/v2/openapi.json' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      openapi: expect.stringMatching(/^3\.1\./),
      paths: expect.objectContaining({ '/public/v2/websites': expect.any(Object) }),
    });
  });

  it('a tampered cursor is refused with code invalid_cursor', async () => {
    const pages = client().paginate({
      path: '/public/v2/websites',
      cursor: 'not-a-real-cursor',
      recordSchema: websiteSchema,
    });
    await expect(allRecords(pages)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_cursor',
      message: expect.stringMatching(
        /^cursor refused \(400 invalid_cursor, request_id [^)]+\): GET \/public\/v2\/websites: /,
      ),
    });
  });
});

describe('ApiClient against the sandbox: keys', () => {
  it('an unknown key: 401 with what to fix and the request_id, not retried', async () => {
    const c = client({ apiKey: 'aivis_not_a_key_at_all' });
    const error = (await c.getResource('/public/v2/websites', {}, websiteSchema).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe(
      // Redacted like every text we print, and still readable: "bearer key." is prose, not a token.
      `API key rejected (401 unauthorized, request_id ${error.requestId}): the API says "Invalid API key: the Authorization header does not carry a known bearer key.": check source.api_key or source.api_key_file`,
    );
    expect(error.requestId).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(error.exitCode).toBe(1);
    expect(sb.stats.requests).toBe(1);
  });

  it.each([
    ['v2Disabled', 'Public API V2 is not enabled for this workspace; it is enabled per workspace on request.'],
    ['noReadScope', 'This API key lacks the read scope; use a key with read scope.'],
  ] as const)('a %s key: 403 quoting the server, then what may be wrong', async (which, said) => {
    const c = client({ apiKey: sb.keys[which] });
    const error = (await c.getResource('/public/v2/websites', {}, websiteSchema).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe(
      `access forbidden (403 forbidden, request_id ${error.requestId}): the API says "${said}": V2 may not be enabled for this workspace, or the key may lack read scope; ask a workspace owner`,
    );
    expect(sb.stats.requests).toBe(1);
  });

  it("another workspace's website is 404 not_found", async () => {
    const [id] = measured();
    const c = client({ apiKey: sb.keys.otherWorkspace });
    await expect(c.getResource(`/public/v2/websites/${id}`, {}, websiteSchema)).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});

describe('ApiClient against the sandbox: faults and the workspace limit', () => {
  const listAll = (c: ApiClient) =>
    allRecords(c.paginate({ path: '/public/v2/websites', query: { limit: '500' }, recordSchema: websiteSchema }));

  it.each([
    [{ kind: 'unavailable', count: 2 }, 2],
    [{ kind: 'internal_error', count: 1, retryAfter: 3 }, 1],
    [{ kind: 'reset', count: 2 }, 2],
    [{ kind: 'truncated_body', count: 1 }, 1],
    [{ kind: 'rate_limited', count: 3 }, 3],
  ] as const)('recovers from %j with %i retries', async (profile, retries) => {
    sb.faults.set(profile);
    const c = client();
    const { raws } = await listAll(c);
    expect(raws).toEqual(sb.truth.websites());
    expect(c.stats.retries).toBe(retries);
    expect(sb.stats.requests).toBe(retries + 1);
  });

  it('waits exactly the Retry-After of a 429 before the retry', async () => {
    sb.faults.set({ kind: 'rate_limited', count: 1, retryAfter: 42 });
    const c = client();
    const t0 = clock.now();
    await listAll(c);
    expect(clock.now() - t0).toBe(42_000);
    expect(c.stats).toMatchObject({ throttled: 1, retries: 1, rateLimitWaitMs: 42_000 });
  });

  it('reads a body sent slowly in pieces', async () => {
    sb.faults.set({ kind: 'slow_body', count: 1, chunks: 5, chunkDelayMs: 0 });
    const { raws } = await listAll(client());
    expect(raws).toEqual(sb.truth.websites());
  });

  it('times out a body that comes too slowly, then retries', async () => {
    // The sandbox waits on the real clock between pieces; the client's deadline is on the test
    // clock, so the test passes it at once and never waits for the sandbox.
    sb.faults.set({ kind: 'slow_body', count: 1, chunks: 2, chunkDelayMs: 2_000 });
    const c = client({ timeoutMs: 15_000 });
    const result = listAll(c);
    await until(() => sb.stats.requests === 1, 'the first request');
    await settle();
    clock.advance(15_000);
    const { raws } = await result;
    expect(raws).toEqual(sb.truth.websites());
    expect(c.stats).toMatchObject({ requests: 2, networkErrors: 1, retries: 1 });
  });

  it('gives up on a 503 storm after maxRetries, naming the last request_id', async () => {
    sb.faults.set({ kind: 'unavailable' });
    const c = client({ maxRetries: 3 });
    const error = (await listAll(c).catch((e: unknown) => e)) as ApiError;
    expect(error.message).toMatch(
      /^API server error \(503 temporarily_unavailable, request_id [A-Za-z0-9._-]+\): GET \/public\/v2\/websites still failing after 3 retries: .+; try again later$/,
    );
    expect(sb.stats.requests).toBe(4);
  });

  it('at the default 90/min, 300 requests never meet the workspace limit of 100', async () => {
    const c = client();
    const t0 = clock.now();
    const [id] = measured();
    for (let i = 0; i < 300; i++) await c.getResource(`/public/v2/websites/${id}`, {}, websiteSchema);
    expect(sb.stats).toMatchObject({ requests: 300, throttled: 0 });
    expect(c.stats).toMatchObject({ requests: 300, retries: 0, throttled: 0 });
    // 300 = 90 + 90 + 90 + 30: three budget waits of just over 60 s.
    expect(clock.now() - t0).toBe(3 * 60_001);
  });

  it('over-budget config: the sandbox 429s, the client pauses for Retry-After and every request still succeeds', async () => {
    const c = client({ requestsPerMinute: 150 });
    const [id] = measured();
    for (let i = 0; i < 250; i++) await c.getResource(`/public/v2/websites/${id}`, {}, websiteSchema);
    expect(sb.stats.throttled).toBeGreaterThan(0);
    expect(c.stats.throttled).toBe(sb.stats.throttled);
    expect(c.stats.requests).toBe(250 + c.stats.throttled);
  });
});
