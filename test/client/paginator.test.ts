import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Page } from '../../src/client/api-client.ts';
import { ApiError } from '../../src/client/api-error.ts';
import { websiteSchema } from '../../schemas/index.ts';
import { MAX_RECORD_BYTES, MAX_RECORD_CONTAINERS } from '../../src/client/capped-body.ts';
import { API_KEY, clientFixture, type ClientFixture } from './support/client-fixture.ts';
import { json } from './support/scripted-server.ts';

const website = (n: number) => ({
  id: `web_${n}`,
  domain_url: `https://site${n}.example`,
  country: 'DE',
  language: 'de',
  industry_niche: null,
  last_analysis_at: null,
});
const page = (
  data: unknown[],
  meta: { has_more: boolean; next_cursor: string | null; scan_upper_bound?: string },
  requestId: string,
) => json(200, { data, meta: { request_id: requestId, ...meta } });

async function collect<T>(pages: AsyncIterable<Page<T>>): Promise<Page<T>[]> {
  const out: Page<T>[] = [];
  for await (const p of pages) out.push(p);
  return out;
}

/** The pages handed on before a scan failed, and its error. */
async function collectUntilFailure<T>(pages: AsyncIterable<Page<T>>): Promise<{ seen: Page<T>[]; error: unknown }> {
  const seen: Page<T>[] = [];
  try {
    for await (const p of pages) seen.push(p);
  } catch (error) {
    return { seen, error };
  }
  return { seen, error: undefined };
}

describe('paginate', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  it('walks through empty pages while has_more, sends the same filters with every cursor, and stops on next_cursor null', async () => {
    f = await clientFixture();
    f.server.script(
      page(
        [website(1), website(2)],
        { has_more: true, next_cursor: 'c1', scan_upper_bound: '2026-03-01T00:00:00.123456789Z' },
        'r1',
      ),
      page([], { has_more: true, next_cursor: 'c2', scan_upper_bound: '2026-03-01T00:00:00.123456789Z' }, 'r2'),
      page([], { has_more: true, next_cursor: 'c3' }, 'r3'),
      page(
        [website(3)],
        { has_more: false, next_cursor: null, scan_upper_bound: '2026-03-01T00:00:00.123456789Z' },
        'r4',
      ),
    );
    const query: Record<string, string | undefined> = {
      limit: '2',
      updated_since: '2026-02-01T00:00Z',
      provider: undefined,
    };
    const pages = f.client.paginate({ path: '/public/v2/websites/web_1/mentions', query, recordSchema: websiteSchema });
    // Filters are frozen when the scan starts: a later change by the caller is not sent.
    query.updated_since = '2099-01-01T00:00Z';
    const seen = await collect(pages);
    expect(f.server.received.map((r) => r.url)).toEqual([
      '/public/v2/websites/web_1/mentions?limit=2&updated_since=2026-02-01T00%3A00Z',
      '/public/v2/websites/web_1/mentions?limit=2&updated_since=2026-02-01T00%3A00Z&cursor=c1',
      '/public/v2/websites/web_1/mentions?limit=2&updated_since=2026-02-01T00%3A00Z&cursor=c2',
      '/public/v2/websites/web_1/mentions?limit=2&updated_since=2026-02-01T00%3A00Z&cursor=c3',
    ]);
    expect(
      seen.map((p) => ({
        cursor: p.cursor,
        ids: [...p.records].map((r) => (r.ok ? r.value.id : '!')),
        hasMore: p.hasMore,
        nextCursor: p.nextCursor,
        requestId: p.requestId,
      })),
    ).toEqual([
      { cursor: null, ids: ['web_1', 'web_2'], hasMore: true, nextCursor: 'c1', requestId: 'r1' },
      { cursor: 'c1', ids: [], hasMore: true, nextCursor: 'c2', requestId: 'r2' },
      { cursor: 'c2', ids: [], hasMore: true, nextCursor: 'c3', requestId: 'r3' },
      { cursor: 'c3', ids: ['web_3'], hasMore: false, nextCursor: null, requestId: 'r4' },
    ]);
    // Nanoseconds survive: the frontier is the string as sent, never a re-formatted Date.
    expect(seen.map((p) => p.scanUpperBound)).toEqual([
      '2026-03-01T00:00:00.123456789Z',
      '2026-03-01T00:00:00.123456789Z',
      undefined,
      '2026-03-01T00:00:00.123456789Z',
    ]);
  });

  it('resumes at a saved cursor', async () => {
    f = await clientFixture();
    f.server.script(page([website(9)], { has_more: false, next_cursor: null }, 'r1'));
    const seen = await collect(
      f.client.paginate({
        path: '/public/v2/websites',
        query: { limit: '100' },
        cursor: 'saved',
        recordSchema: websiteSchema,
      }),
    );
    expect(f.server.received.map((r) => r.url)).toEqual(['/public/v2/websites?limit=100&cursor=saved']);
    expect(seen[0]!.cursor).toBe('saved');
  });

  it('surfaces an invalid record with its reason and raw form, and keeps the rest of the page', async () => {
    f = await clientFixture();
    const bad = { ...website(2), country: 'germany', extra_field: { kept: true } };
    f.server.script(page([website(1), bad, website(3)], { has_more: false, next_cursor: null }, 'r1'));
    const [only] = await collect(f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }));
    expect([...only!.records]).toEqual([
      { ok: true, value: website(1), raw: website(1) },
      { ok: false, raw: bad, error: expect.stringMatching(/^country: must be .*\(got "germany"\)$/) },
      { ok: true, value: website(3), raw: website(3) },
    ]);
  });

  it('keeps unknown fields and integers beyond 2^53 exact in raw', async () => {
    f = await clientFixture();
    const text = `{"data":[{"id":"web_1","domain_url":"https://a.example","country":"DE","language":null,"industry_niche":null,"last_analysis_at":null,"future_count":12345678901234567890}],"meta":{"request_id":"r1","has_more":false,"next_cursor":null}}`;
    f.server.script(json(200, text));
    const [only] = await collect(f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }));
    const record = [...only!.records][0]!;
    expect(record.ok).toBe(true);
    expect(JSON.stringify(record.raw)).toBe(
      '{"id":"web_1","domain_url":"https://a.example","country":"DE","language":null,"industry_niche":null,"last_analysis_at":null,"future_count":12345678901234567890}',
    );
  });

  it('rejects a record nested 5,000 levels deep, and keeps the rest of the page with its big integers exact', async () => {
    f = await clientFixture();
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const text = `{"data":[{"n":12345678901234567890},{"id":"x","extensions":${deep}},{"n":2}],"meta":{"request_id":"r1","has_more":false,"next_cursor":null}}`;
    f.server.script(json(200, text));
    const [only] = await collect(f.client.paginate({ path: '/public/v2/websites', recordSchema: z.looseObject({}) }));
    expect([...only!.records].map((r) => (r.ok ? 'ok' : r.error))).toEqual([
      'ok',
      'nested deeper than 100 levels of objects and arrays, the most aivis stores',
      'ok',
    ]);
    expect(([...only!.records][1]!.raw as { id: string }).id).toBe('x');
    // Each record is parsed on its own: only the deep one goes without the exact-integer reviver.
    expect(JSON.stringify([...only!.records][0]!.raw)).toBe('{"n":12345678901234567890}');
  });

  it('validates the big integer as the number it is, so the reason names the value', async () => {
    f = await clientFixture();
    const text = `{"data":[{"n":9007199254740993}],"meta":{"request_id":"r1","has_more":false,"next_cursor":null}}`;
    f.server.script(json(200, text));
    const schema = z.object({ n: z.number().max(9007199254740991, 'too big') });
    const [only] = await collect(f.client.paginate({ path: '/public/v2/websites', recordSchema: schema }));
    expect([...only!.records][0]).toMatchObject({ ok: false, error: 'n: too big' });
    expect(JSON.stringify([...only!.records][0]!.raw)).toBe('{"n":9007199254740993}');
  });

  it('ends the scan on has_more: false, whatever next_cursor says', async () => {
    f = await clientFixture();
    f.server.script(page([website(1)], { has_more: false, next_cursor: 'c-more' }, 'r1'));
    const seen = await collect(f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }));
    expect(seen.map((p) => [p.hasMore, p.nextCursor])).toEqual([[false, 'c-more']]);
    expect(f.server.received).toHaveLength(1);
  });

  it('hands on the page of a broken scan (has_more without a cursor), then fails it naming the request_id', async () => {
    f = await clientFixture();
    f.server.script(page([website(1)], { has_more: true, next_cursor: null }, 'r-odd'));
    const { seen, error } = await collectUntilFailure(
      f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }),
    );
    expect(seen.map((p) => p.recordCount)).toEqual([1]);
    expect(f.server.received).toHaveLength(1);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: 'invalid_response', requestId: 'r-odd' });
    expect((error as Error).message).toBe(
      'broken scan (200, request_id r-odd): GET /public/v2/websites: the API said has_more: true but sent no next_cursor, so the rest of the scan cannot be read; ' +
        'the rows read so far are kept, the saved frontier stays where it was, and the next run reads this scan again',
    );
  });

  it.each([
    ['', "the API sent an empty next_cursor (the spec's cursors have 1 to 22000 characters)"],
    ['c'.repeat(22_001), "the API sent a next_cursor of 22001 characters, more than the spec's 22000"],
  ])(
    'refuses a page whose next_cursor is outside 1 to 22000 characters (%#), before it is handed on or sent',
    async (cursor, what) => {
      f = await clientFixture();
      f.server.script(page([website(1)], { has_more: true, next_cursor: cursor }, 'r-cursor'));
      const { seen, error } = await collectUntilFailure(
        f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }),
      );
      expect(seen).toEqual([]);
      expect(f.server.received).toHaveLength(1);
      expect(error).toMatchObject({ status: 200, code: 'invalid_response', requestId: 'r-cursor' });
      expect((error as Error).message).toBe(
        `broken scan (200, request_id r-cursor): GET /public/v2/websites: ${what}; ` +
          'the page is refused, the saved frontier and position stay where they were, and the next run reads on from there',
      );
    },
  );

  it('fails on an envelope that breaks the contract, naming what is wrong and the request_id', async () => {
    f = await clientFixture();
    f.server.script(json(200, { data: [], meta: { request_id: 'r-bad', has_more: 'yes' } }));
    const error = await collect(f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: 'invalid_response', requestId: 'r-bad' });
    expect((error as Error).message).toBe(
      'invalid response (200, request_id r-bad): GET /public/v2/websites: the body does not match the V2 contract: meta.has_more: must be true or false (got "yes"); meta.next_cursor: is missing (send null when there is no value)',
    );
  });
  const refused = (what: string, requestId = 'r-big') =>
    `broken scan (200, request_id ${requestId}): GET /public/v2/websites: the API ${what}; ` +
    'the page is refused, the saved frontier and position stay where they were, and the next run reads on from there';

  it('refuses a page of more records than the limit asked for, before any record of it is handed on', async () => {
    f = await clientFixture();
    f.server.script(page([website(1), website(2), website(3)], { has_more: false, next_cursor: null }, 'r-big'));
    const { seen, error } = await collectUntilFailure(
      f.client.paginate({ path: '/public/v2/websites', query: { limit: '2' }, recordSchema: websiteSchema }),
    );
    expect(seen).toEqual([]);
    expect(f.server.received).toHaveLength(1); // a breach, not retried
    expect(error).toMatchObject({ status: 200, code: 'invalid_response', requestId: 'r-big' });
    expect((error as Error).message).toBe(
      refused('sent 3 records in one page, more than the limit of 2 aivis asked for'),
    );
  });

  it('holds a page to the spec default limit of 100 when the scan sends none', async () => {
    f = await clientFixture();
    const data = Array.from({ length: 101 }, (_, i) => website(i));
    f.server.script(page(data, { has_more: false, next_cursor: null }, 'r-big'));
    const { error } = await collectUntilFailure(
      f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }),
    );
    expect((error as Error).message).toBe(
      refused('sent 101 records in one page, more than the limit of 100 aivis asked for'),
    );
  });

  it('refuses a page with a record larger than aivis holds of one (4 MiB), naming it', async () => {
    f = await clientFixture();
    const huge = { ...website(2), industry_niche: 'x'.repeat(MAX_RECORD_BYTES) };
    f.server.script(page([website(1), huge], { has_more: false, next_cursor: null }, 'r-big'));
    const { seen, error } = await collectUntilFailure(
      f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }),
    );
    expect(seen).toEqual([]);
    const bytes = JSON.stringify(huge).length;
    expect((error as Error).message).toBe(
      refused(`sent ${bytes} bytes in one record (data[1]), more than the 4 MiB aivis holds of one record`),
    );
  });

  it('refuses a page with a record of more objects and arrays than aivis holds in one (100,000), naming it', async () => {
    f = await clientFixture();
    const dense = { ...website(2), extensions: Array.from({ length: MAX_RECORD_CONTAINERS }, () => ({})) };
    f.server.script(page([website(1), dense], { has_more: false, next_cursor: null }, 'r-big'));
    const { seen, error } = await collectUntilFailure(
      f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }),
    );
    expect(seen).toEqual([]);
    expect((error as Error).message).toBe(
      refused('sent 100002 objects and arrays in one record (data[1]), more than the 100000 aivis holds in one record'),
    );
  });

  it('refuses a page whose envelope beside its records is larger than a record may be, unretried, decoding none of it', async () => {
    f = await clientFixture();
    const note = 'x'.repeat(MAX_RECORD_BYTES);
    f.server.script(
      json(
        200,
        { data: [website(1)], meta: { request_id: 'r-env', has_more: false, next_cursor: null, note } },
        { 'x-request-id': 'r-env' },
      ),
    );
    const { seen, error } = await collectUntilFailure(
      f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }),
    );
    expect(seen).toEqual([]);
    expect(f.server.received).toHaveLength(1);
    expect(error).toMatchObject({ status: 200, code: 'response_too_large', requestId: 'r-env' });
    expect((error as Error).message).toBe(
      "response too large (200, request_id r-env): GET /public/v2/websites: the page's envelope beside its records is larger than 4194304 bytes, the most aivis holds of it (4 MiB); nothing of it was used",
    );
  });

  it('retries a page one of whose records is not JSON, as a body cut short', async () => {
    f = await clientFixture({ client: { maxRetries: 1 } });
    const text =
      '{"data":[{"id":"web_1"},{"id":web_2}],"meta":{"request_id":"r1","has_more":false,"next_cursor":null}}';
    f.server.script(json(200, text), page([website(1)], { has_more: false, next_cursor: null }, 'r2'));
    const seen = await collect(f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }));
    expect(f.server.received).toHaveLength(2);
    expect(seen.map((p) => p.requestId)).toEqual(['r2']);
  });

  it('redacts the API key echoed in \\u escapes in records and the envelope, counting each copy', async () => {
    f = await clientFixture();
    const escaped = [...API_KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const text = `{"data":[{"id":"web_1","domain_url":"https://a.example","country":"DE","language":"${escaped}","industry_niche":null,"last_analysis_at":null,"n":12345678901234567890}],"meta":{"request_id":"r1","has_more":false,"next_cursor":null,"note":"${escaped}"}}`;
    f.server.script(json(200, text));
    const [only] = await collect(f.client.paginate({ path: '/public/v2/websites', recordSchema: websiteSchema }));
    const [record] = [...only!.records];
    expect(record).toMatchObject({ ok: true, value: { language: '[REDACTED]' } });
    expect(JSON.stringify(record!.raw)).toContain('"language":"[REDACTED]"');
    expect(JSON.stringify(record!.raw)).toContain('"n":12345678901234567890');
    expect(f.client.stats.echoedKeys).toBe(2);
  });
});
