import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '../../schemas/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { until } from '../support/until.ts';
import { call, walk } from './sandbox-http.ts';

let sb: Sandbox;
beforeEach(async () => {
  sb = await startSandbox({ requestsPerMinute: 0 });
});
afterEach(() => sb.close());

const statuses = async (n: number, path = '/public/v2/websites') => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call(sb, path)).status);
  return out;
};
const withoutRequestId = (text: string) => text.replace(/"request_id":"[^"]+"/, '"request_id":"-"');

describe('fault profiles', () => {
  it('rate_limited: a 429 storm for the next N requests, Retry-After 1 by default or as given', async () => {
    sb.faults.set({ kind: 'rate_limited', count: 2 });
    const first = await call(sb, '/public/v2/websites');
    expect(first.status).toBe(429);
    errorEnvelopeSchema.parse(first.body);
    expect(first.body.error.code).toBe('rate_limited');
    expect(first.headers['retry-after']).toBe('1');
    expect(await statuses(2)).toEqual([429, 200]);
    sb.faults.set({ kind: 'rate_limited', count: 1, retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT' });
    expect((await call(sb, '/public/v2/websites')).headers['retry-after']).toBe('Wed, 21 Oct 2026 07:28:00 GMT');
  });

  it.each([
    ['internal_error', 500, 'internal_error'],
    ['unavailable', 503, 'temporarily_unavailable'],
  ] as const)('%s: %i with and without Retry-After', async (kind, status, code) => {
    sb.faults.set({ kind, count: 1 });
    const bare = await call(sb, '/public/v2/websites');
    expect(bare.status).toBe(status);
    expect(bare.body.error.code).toBe(code);
    expect(bare.headers['retry-after']).toBeUndefined();
    sb.faults.set({ kind, count: 1, retryAfter: 7 });
    const hinted = await call(sb, '/public/v2/websites');
    expect(hinted.status).toBe(status);
    expect(hinted.headers['retry-after']).toBe('7');
    expect(await statuses(1)).toEqual([200]);
  });

  it('a status fault sends the message given instead of its own, controls and all', async () => {
    const message = 'Quota for key \u202eyek-ti\u202c exceeded.\n';
    sb.faults.set({ kind: 'internal_error', count: 1, message });
    const answer = await call(sb, '/public/v2/websites');
    expect([answer.status, answer.body.error]).toEqual([500, { code: 'internal_error', message }]);
    expect(() => sb.faults.set({ kind: 'unavailable', message: 7 as never })).toThrow(
      'fault profile: message must be a string',
    );
  });

  it('html_page, no_content, empty_body: a 200 sign-in page, a 204, a 200 with no body', async () => {
    sb.faults.set({ kind: 'html_page', count: 1 });
    sb.faults.set({ kind: 'no_content', count: 1 });
    sb.faults.set({ kind: 'empty_body', count: 1 });
    const page = await call(sb, '/public/v2/websites');
    expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(page.text).toMatch(/^<!DOCTYPE html>\n<html>.*Sign in to continue/);
    const none = await call(sb, '/public/v2/websites');
    expect([none.status, none.text]).toEqual([204, '']);
    const empty = await call(sb, '/public/v2/websites');
    expect([empty.status, empty.headers['content-length'], empty.text]).toEqual([200, '0', '']);
    expect(await statuses(1)).toEqual([200]);
  });

  it('no_answer: the request is read and never answered, until the client gives up', async () => {
    sb.faults.set({ kind: 'no_answer', count: 1 });
    const gaveUp = new AbortController();
    const pending = call(sb, '/public/v2/websites', sb.apiKey, 'GET', undefined, gaveUp.signal);
    await until(() => sb.stats.requests === 1, 'the request to arrive');
    gaveUp.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
    expect(await statuses(1)).toEqual([200]);
  });

  it('reset: the connection drops before any response byte', async () => {
    sb.faults.set({ kind: 'reset', count: 1 });
    await expect(call(sb, '/public/v2/websites')).rejects.toMatchObject({
      code: expect.stringMatching(/ECONNRESET|UND_ERR_SOCKET/),
    });
    expect(await statuses(1)).toEqual([200]);
  });

  it('truncated_body: full Content-Length, half the body, then the connection closes', async () => {
    const whole = await call(sb, '/public/v2/websites');
    sb.faults.set({ kind: 'truncated_body', count: 1 });
    const res = await request(`${sb.baseUrl}/public/v2/websites`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    });
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(whole.text));
    await expect(res.body.text()).rejects.toThrow();
  });

  it('slow_body: the same bytes, delivered in pieces', async () => {
    const whole = await call(sb, '/public/v2/websites');
    sb.faults.set({ kind: 'slow_body', count: 1, chunks: 3, chunkDelayMs: 30 });
    const res = await request(`${sb.baseUrl}/public/v2/websites`, {
      headers: { authorization: `Bearer ${sb.apiKey}` },
    });
    const pieces: Buffer[] = [];
    for await (const piece of res.body) pieces.push(piece as Buffer);
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    expect(withoutRequestId(Buffer.concat(pieces).toString())).toBe(withoutRequestId(whole.text));
  });

  it('routes: only the named routes fail; a storm without count lasts until cleared', async () => {
    const site = sb.truth.websites()[0]!.id;
    sb.faults.set({ kind: 'unavailable', routes: ['mentions'] });
    expect(await statuses(3, `/public/v2/websites/${site}/mentions`)).toEqual([503, 503, 503]);
    expect(await statuses(2, `/public/v2/websites/${site}/citations`)).toEqual([200, 200]);
    sb.faults.clear();
    expect(await statuses(1, `/public/v2/websites/${site}/mentions`)).toEqual([200]);
  });

  it('fraction: a seeded share of requests fails, the same ones for the same seed', async () => {
    sb.faults.set({ kind: 'internal_error', fraction: 0.3 });
    const first = await statuses(40);
    const failed = first.filter((s) => s === 500).length;
    expect(failed).toBeGreaterThan(4);
    expect(failed).toBeLessThan(24);
    const again = await startSandbox({ requestsPerMinute: 0 });
    again.faults.set({ kind: 'internal_error', fraction: 0.3 });
    const second: number[] = [];
    for (let i = 0; i < 40; i++) second.push((await call(again, '/public/v2/websites')).status);
    await again.close();
    expect(second).toEqual(first);
  });

  it('empty_page: a continuation page comes back empty with has_more and the same cursor; following it loses nothing', async () => {
    const site = sb.truth.websites()[0]!.id as string;
    const first = await call(sb, `/public/v2/websites/${site}/mentions?limit=10`);
    sb.faults.set({ kind: 'empty_page', count: 2, routes: ['mentions'] });
    const cursor = first.body.meta.next_cursor as string;
    const empty = await call(sb, `/public/v2/websites/${site}/mentions?limit=10&cursor=${encodeURIComponent(cursor)}`);
    expect(empty.body.data).toEqual([]);
    expect(empty.body.meta).toMatchObject({
      has_more: true,
      next_cursor: cursor,
      scan_upper_bound: first.body.meta.scan_upper_bound,
    });
    const rest = await walk(sb, `/public/v2/websites/${site}/mentions?limit=10`, sb.apiKey, cursor);
    expect(rest.metas[0].has_more).toBe(true);
    expect(rest.metas[0].next_cursor).toBe(cursor);
    expect([...first.body.data, ...rest.rows]).toEqual([...sb.truth.mentions(site)]);
  });

  it('profiles stack in order of set; each count runs out on its own; clear removes all', async () => {
    sb.faults.set({ kind: 'unavailable', count: 1 });
    sb.faults.set({ kind: 'internal_error', count: 2 });
    sb.faults.set({ kind: 'rate_limited', routes: ['websites.get'] });
    const site = sb.truth.websites()[0]!.id;
    expect(await statuses(4)).toEqual([503, 500, 500, 200]);
    expect(await statuses(2, `/public/v2/websites/${site}`)).toEqual([429, 429]);
    sb.faults.clear();
    expect(await statuses(1, `/public/v2/websites/${site}`)).toEqual([200]);
  });

  it('faulted requests are counted on arrival', async () => {
    sb.faults.set({ kind: 'rate_limited', count: 2 });
    await statuses(3);
    expect(sb.stats).toMatchObject({ requests: 3, throttled: 0, byRoute: { 'websites.list': 3 } });
  });

  it('a bad profile is refused with a message naming the field', () => {
    expect(() => sb.faults.set({ kind: 'explode' as never })).toThrow(
      'fault profile: kind must be one of rate_limited, internal_error, unavailable, reset, no_answer, html_page, no_content, empty_body, slow_body, truncated_body, empty_page, cursorless_page, malformed_record, not_found, same_cursor, cursor_loop, repeat_page, bound_future, long_cursor, duplicate_meta_keys',
    );
    expect(() => sb.faults.set({ kind: 'reset', count: 0 })).toThrow('fault profile: count must be a positive integer');
    expect(() => sb.faults.set({ kind: 'reset', fraction: 2 })).toThrow(
      'fault profile: fraction must be a number from 0 to 1',
    );
  });
});
