import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '../../schemas/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call } from './sandbox-http.ts';

let sb: Sandbox;
let id: string;
beforeAll(async () => {
  sb = await startSandbox({ requestsPerMinute: 0 });
  id = sb.truth.websites()[0]!.id as string;
});
afterAll(() => sb.close());

const LIMIT = 'must be an integer from 1 to 500';
const SINCE = 'must be a UTC timestamp YYYY-MM-DDThh:mm[:ss[.fraction]]Z with a valid calendar date and time';
const INCLUDE = 'must be a comma-separated list of providers and/or competitors';

async function rejected(path: string) {
  const { status, body } = await call(sb, path);
  expect(status, path.slice(0, 200)).toBe(400);
  errorEnvelopeSchema.parse(body);
  expect(body.error.code).toBe('invalid_request');
  return body.error.details as { field: string; issue: string }[];
}

describe('query parameters (spec part 4)', () => {
  it.each(['0', '501', '-1', '1.5', 'ten', '', ' 5'])('limit=%j is refused', async (value) => {
    expect(await rejected(`/public/v2/websites?limit=${encodeURIComponent(value)}`)).toEqual([
      { field: 'limit', issue: LIMIT },
    ]);
  });

  it.each(['1', '500'])('limit=%s is accepted and bounds the page', async (value) => {
    const { status, body } = await call(sb, `/public/v2/websites/${id}/mentions?limit=${value}`);
    expect(status).toBe(200);
    expect(body.data.length).toBe(Math.min(Number(value), [...sb.truth.mentions(id)].length));
  });

  it('the default page size is 100', async () => {
    const { body } = await call(sb, `/public/v2/websites/${id}/mentions`);
    expect(body.data).toHaveLength(100);
  });

  it('cursor must be 1 to 22000 characters', async () => {
    expect(await rejected('/public/v2/websites?cursor=')).toEqual([
      { field: 'cursor', issue: 'must be 1 to 22000 characters' },
    ]);
    expect(await rejected(`/public/v2/websites?cursor=${'a'.repeat(22001)}`)).toEqual([
      { field: 'cursor', issue: 'must be 1 to 22000 characters' },
    ]);
    // 22000 characters pass the length rule and then fail as a cursor.
    const { body } = await call(sb, `/public/v2/websites?cursor=${'a'.repeat(22000)}`);
    expect(body.error.code).toBe('invalid_cursor');
  });

  it.each(['', 'provider', 'providers,', 'providers;competitors', 'PROVIDERS', 'providers,,competitors'])(
    'include=%j is refused',
    async (value) => {
      expect(await rejected(`/public/v2/websites/${id}/analytics?include=${encodeURIComponent(value)}`)).toEqual([
        { field: 'include', issue: INCLUDE },
      ]);
    },
  );

  it.each([
    'providers',
    ' providers ',
    'competitors,providers',
    'providers , competitors',
    '\tproviders,\ncompetitors ',
  ])('include=%j is accepted', async (value) => {
    expect((await call(sb, `/public/v2/websites/${id}/analytics?include=${encodeURIComponent(value)}`)).status).toBe(
      200,
    );
  });

  it.each([
    '2026-01-01',
    '2026-01-01T00:00',
    '2026-01-01T00:00:00',
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00Z',
    '2026-01-01T24:00Z',
    '2026-01-01T00:60Z',
    '2026-01-01T00:00:00+00:00',
    '2026-01-01T00:00:00.Z',
    'yesterday',
  ])('updated_since=%j is refused', async (value) => {
    expect(await rejected(`/public/v2/websites/${id}/mentions?updated_since=${encodeURIComponent(value)}`)).toEqual([
      { field: 'updated_since', issue: SINCE },
    ]);
  });

  it.each(['2026-01-01T00:00Z', '2025-12-31T23:59:59Z', '2024-02-29T12:00:00.123456Z'])(
    'updated_since=%j is accepted',
    async (value) => {
      expect(
        (await call(sb, `/public/v2/websites/${id}/analytics/history?updated_since=${encodeURIComponent(value)}`))
          .status,
      ).toBe(200);
    },
  );

  it('provider must be one of the four providers; analysis_id must be an ana_ id', async () => {
    expect(await rejected(`/public/v2/websites/${id}/mentions?provider=claude`)).toEqual([
      { field: 'provider', issue: 'must be one of chatgpt, gemini, perplexity, google_ai_overview' },
    ]);
    expect(await rejected(`/public/v2/websites/${id}/citations?analysis_id=web_x`)).toEqual([
      {
        field: 'analysis_id',
        issue: 'must be an analysis id (ana_ followed by letters, digits, _ or -), at most 128 characters',
      },
    ]);
    expect(
      (await call(sb, `/public/v2/websites/${id}/mentions?provider=google_ai_overview&analysis_id=ana_unknown`)).body
        .data,
    ).toEqual([]);
  });

  it('unknown and repeated parameters are refused, every problem reported at once', async () => {
    expect(
      await rejected(`/public/v2/websites/${id}/mentions?update_since=2026-01-01T00:00Z&limit=1&limit=2&provider=x`),
    ).toEqual([
      {
        field: 'update_since',
        issue: 'unknown parameter; this endpoint accepts updated_since, provider, analysis_id, limit, cursor',
      },
      { field: 'limit', issue: 'must be given at most once' },
      { field: 'provider', issue: 'must be one of chatgpt, gemini, perplexity, google_ai_overview' },
    ]);
    expect(await rejected(`/public/v2/websites/${id}/analytics/history?provider=gemini`)).toEqual([
      { field: 'provider', issue: 'unknown parameter; this endpoint accepts updated_since, limit, cursor' },
    ]);
    expect(await rejected(`/public/v2/websites/${id}?limit=1`)).toEqual([
      { field: 'limit', issue: 'unknown parameter; this endpoint accepts no parameters' },
    ]);
    expect(await rejected(`/public/v2/websites/${id}/citations?provider=gemini`)).toEqual([
      {
        field: 'provider',
        issue: 'unknown parameter; this endpoint accepts updated_since, analysis_id, limit, cursor',
      },
    ]);
  });

  it('a path website_id that cannot be an id is 400, naming the field', async () => {
    expect(await rejected('/public/v2/websites/site%20one/mentions')).toEqual([
      { field: 'website_id', issue: 'must match ^web_[A-Za-z0-9_-]+$, at most 128 characters' },
    ]);
  });
});
