import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '../../schemas/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call, walk } from './sandbox-http.ts';

let sb: Sandbox;
let a: string;
let b: string;
beforeAll(async () => {
  sb = await startSandbox({ requestsPerMinute: 0 });
  [a, b] = sb.truth.websites().map((w) => w.id as string) as [string, string];
});
afterAll(() => sb.close());

const TAMPERED = 'The cursor is malformed or was altered; restart the scan without a cursor.';
const OTHER_FILTERS =
  'The cursor was issued for other filters; send the filters of the first page, or restart the scan.';
const OTHER_SCOPE = 'The cursor belongs to another endpoint or website; restart the scan without a cursor.';

async function cursorOf(path: string): Promise<string> {
  const { body } = await call(sb, path);
  expect(body.meta.has_more).toBe(true);
  return body.meta.next_cursor;
}

async function refused(path: string, cursor: string, message: string) {
  const { status, body } = await call(
    sb,
    `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`,
  );
  expect(status).toBe(400);
  errorEnvelopeSchema.parse(body);
  expect(body.error).toEqual({ code: 'invalid_cursor', message });
}

/** Changes one character in the middle of `text`. */
const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);

describe('cursors (spec 4.10)', () => {
  it('refuses an edited, truncated, unsigned or invented cursor with 400 invalid_cursor', async () => {
    const path = `/public/v2/websites/${a}/mentions?limit=2`;
    const cursor = await cursorOf(path);
    const [payload, tag] = cursor.split('.') as [string, string];
    const forged = Buffer.from(
      Buffer.from(payload, 'base64url')
        .toString()
        .replace(/"i":\d+/, '"i":0'),
    ).toString('base64url');
    for (const bad of [
      flip(cursor, 10),
      flip(cursor, cursor.length - 3),
      cursor.slice(0, -1),
      payload,
      `${forged}.${tag}`,
      'not-a-cursor',
      `${cursor}.x`,
    ]) {
      await refused(path, bad, TAMPERED);
    }
  });

  it('refuses a cursor replayed with other filters', async () => {
    const path = `/public/v2/websites/${a}/mentions?provider=gemini&limit=2`;
    const cursor = await cursorOf(path);
    await refused(`/public/v2/websites/${a}/mentions?provider=chatgpt&limit=2`, cursor, OTHER_FILTERS);
    await refused(
      `/public/v2/websites/${a}/mentions?provider=gemini&updated_since=2025-01-01T00:00Z`,
      cursor,
      OTHER_FILTERS,
    );
    await refused(`/public/v2/websites/${a}/mentions?updated_since=2025-01-01T00:00Z`, cursor, OTHER_FILTERS);
  });

  it('refuses a cursor of another endpoint or website', async () => {
    const mentions = await cursorOf(`/public/v2/websites/${a}/mentions?limit=1`);
    await refused(`/public/v2/websites/${a}/citations`, mentions, OTHER_SCOPE);
    await refused(`/public/v2/websites/${b}/mentions`, mentions, OTHER_SCOPE);
    await refused('/public/v2/websites', mentions, OTHER_SCOPE);
    const listing = await cursorOf('/public/v2/websites?limit=1');
    await refused(`/public/v2/websites/${a}/analytics/history`, listing, OTHER_SCOPE);
  });

  it('keeps the filters of the first page when a request sends only the cursor, and lets the page size change', async () => {
    const first = await call(sb, `/public/v2/websites/${a}/mentions?provider=perplexity&limit=2`);
    const rest = await walk(sb, `/public/v2/websites/${a}/mentions?limit=3`, sb.apiKey, first.body.meta.next_cursor);
    const expected = [...sb.truth.mentions(a)].filter((m: any) => m.provider === 'perplexity');
    expect([...first.body.data, ...rest.rows]).toEqual(expected);
    const same = await walk(
      sb,
      `/public/v2/websites/${a}/mentions?provider=perplexity&limit=500`,
      sb.apiKey,
      first.body.meta.next_cursor,
    );
    expect([...first.body.data, ...same.rows]).toEqual(expected);
  });

  it('ends a scan only with next_cursor null, has_more false', async () => {
    const { metas } = await walk(sb, `/public/v2/websites/${a}/analytics/history?limit=1`);
    expect(metas.length).toBe([...sb.truth.history(a)].length);
    expect(metas.at(-1)).toMatchObject({ has_more: false, next_cursor: null });
    expect(metas.slice(0, -1).every((m) => m.has_more === true && typeof m.next_cursor === 'string')).toBe(true);
  });
});
