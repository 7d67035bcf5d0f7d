/**
 * A success that is not a V2 answer says what came instead, and only JSON cut short is
 * retried: an HTML page (a proxy's or captive portal's login), another media type or no body
 * at all is what the server meant to send, and it comes back the same on every attempt.
 */
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/client/api-error.ts';
import { clientFixture, type ClientFixture } from './support/client-fixture.ts';
import type { Responder } from './support/scripted-server.ts';

const PORTAL = '<!DOCTYPE html><html><head><title>Sign in to the guest Wi-Fi</title></head><body></body></html>';
const answer =
  (status: number, body: string, headers: http.OutgoingHttpHeaders = {}): Responder =>
  (res) => {
    res.writeHead(status, { 'x-request-id': 'gw-1', ...headers });
    res.end(body);
  };
const where = 'invalid response (200, request_id gw-1): GET /public/v2/websites/web_1';

describe('a success that is not a V2 answer', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  it.each([
    [
      'an HTML page',
      answer(200, PORTAL, { 'content-type': 'text/html; charset=utf-8' }),
      `${where}: the 200 response is an HTML page (text/html, ${PORTAL.length} characters), not JSON: a proxy or captive portal? check that source.base_url is the API and that this machine reaches it without a login page`,
    ],
    [
      'an HTML page sent as JSON',
      answer(200, `\n${PORTAL}`, { 'content-type': 'application/json' }),
      `${where}: the 200 response is an HTML page (application/json, ${PORTAL.length + 1} characters), not JSON: a proxy or captive portal? check that source.base_url is the API and that this machine reaches it without a login page`,
    ],
    [
      'another media type',
      answer(200, 'OK', { 'content-type': 'text/plain' }),
      `${where}: the 200 response is "text/plain" (2 characters), not JSON`,
    ],
    [
      'a 204',
      answer(204, ''),
      'invalid response (204, request_id gw-1): GET /public/v2/websites/web_1: the answer is 204 No Content, with no body, where every V2 answer is a JSON document',
    ],
    [
      'an empty 200',
      answer(200, '', { 'content-type': 'application/json', 'content-length': '0' }),
      `${where}: the 200 response has an empty body, where every V2 answer is a JSON document`,
    ],
  ])('%s fails at once, unretried, saying what it was', async (_what, responder, message) => {
    f = await clientFixture({ fallback: responder });
    const request = f.client.request({ method: 'GET', path: '/public/v2/websites/web_1' });
    const error = await request.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(message);
    expect(error).toMatchObject({ code: 'invalid_response', workspaceWide: false, exitCode: 1 });
    expect(f.server.received).toHaveLength(1);
    expect(f.client.stats.retries).toBe(0);
  });

  it('a list page that is a 204 says so, not that a field of the contract is missing', async () => {
    f = await clientFixture({ fallback: answer(204, '') });
    const pages = f.client.paginate({ path: '/public/v2/websites', query: {}, recordSchema: z.unknown() });
    const error = await (async () => {
      for await (const page of pages) expect(page).toBeUndefined();
    })().catch((e: unknown) => e);
    expect((error as ApiError).message).toBe(
      'invalid response (204, request_id gw-1): GET /public/v2/websites: the answer is 204 No Content, with no body, where every V2 answer is a JSON document',
    );
  });
});
