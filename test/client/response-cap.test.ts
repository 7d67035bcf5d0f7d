/**
 * The response body cap: a body larger than 64 MiB (or the client's `maxResponseBytes`) fails
 * its request with a clear error, unretried, instead of exhausting the heap; the bytes are
 * counted as they arrive, so an endless body stops at the cap too.
 */
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/client/api-error.ts';
import { MAX_RECORD_BYTES, MAX_RESPONSE_BYTES } from '../../src/client/capped-body.ts';
import { clientFixture, type ClientFixture } from './support/client-fixture.ts';
import { json, type Responder } from './support/scripted-server.ts';

const get = (f: ClientFixture) => f.client.request({ method: 'GET', path: '/public/v2/websites' });

/** A 200 of `size` bytes sent in 1 MiB chunks without Content-Length (the client stops reading at its cap). */
const chunked =
  (size: number): Responder =>
  (res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-big' });
    const piece = Buffer.alloc(1024 * 1024, 0x20);
    let left = size;
    const send = () => {
      while (left > 0 && !res.destroyed) {
        const part = piece.subarray(0, Math.min(piece.length, left));
        left -= part.length;
        if (!res.write(part)) return void res.once('drain', send);
      }
      res.end();
    };
    send();
  };

describe('response body cap', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  it('is 64 MiB by default, and a body over it fails the request at once, unretried, naming the cap', async () => {
    expect(MAX_RESPONSE_BYTES).toBe(64 * 1024 * 1024);
    f = await clientFixture();
    f.server.script(chunked(MAX_RESPONSE_BYTES + 1024 * 1024));
    const error = await get(f).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(
      'response too large (200, request_id r-big): GET /public/v2/websites: the response body is larger than 67108864 bytes, the most aivis reads of one response (64 MiB); nothing of it was used',
    );
    expect(error).toMatchObject({ status: 200, code: 'response_too_large', requestId: 'r-big', exitCode: 1 });
    expect(f.server.received).toHaveLength(1);
    expect(f.client.stats.retries).toBe(0);
  });

  it('refuses a declared Content-Length over the cap before reading, and reads a body right at the cap', async () => {
    f = await clientFixture({ client: { maxResponseBytes: 64 } });
    const body = (size: number) => {
      const text = JSON.stringify({ data: [], meta: { request_id: 'r-ok', pad: '' } });
      return text.replace('"pad":""', `"pad":"${'x'.repeat(size - text.length)}"`);
    };
    f.server.script(json(200, body(65), { 'content-length': '65' }), json(200, body(64), { 'content-length': '64' }));
    await expect(get(f)).rejects.toThrow(
      /^response too large \(200, request_id none\): GET \/public\/v2\/websites: the response body is larger than 64 bytes/,
    );
    expect((await get(f)).requestId).toBe('r-ok');
  });

  it('refuses a success read whole (not a list page) larger than a record may be (4 MiB), unretried; an error body that large is left unread', async () => {
    f = await clientFixture({ client: { maxRetries: 1 } });
    const big = { data: { id: 'web_1', note: 'x'.repeat(MAX_RECORD_BYTES) }, meta: { request_id: 'r-one' } };
    f.server.script(json(200, big, { 'x-request-id': 'r-one' }));
    const error = await get(f).catch((e: unknown) => e);
    expect((error as ApiError).message).toBe(
      'response too large (200, request_id r-one): GET /public/v2/websites: the response body, read whole, is larger than 4194304 bytes, the most aivis holds of it (4 MiB); nothing of it was used',
    );
    expect(f.server.received).toHaveLength(1);

    const failing = { error: { code: 'internal_error', message: 'x'.repeat(MAX_RECORD_BYTES) }, meta: {} };
    f.server.script(json(500, failing), json(500, failing));
    const unread = await get(f).catch((e: unknown) => e);
    expect((unread as ApiError).message).toBe(
      'API server error (500 no error code, request_id none): GET /public/v2/websites still failing after 1 retries; try again later',
    );
    expect(f.server.received).toHaveLength(3);
  });
});
