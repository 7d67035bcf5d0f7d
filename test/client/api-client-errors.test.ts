import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.ts';
import { ApiError } from '../../src/client/api-error.ts';
import { ConfigError } from '../../src/errors.ts';
import { websiteSchema } from '../../schemas/index.ts';
import { API_KEY, clientFixture, type ClientFixture } from './support/client-fixture.ts';
import { apiError, json, type Responder } from './support/scripted-server.ts';

const failure = async (
  f: ClientFixture,
  responder: Responder,
  method: 'GET' | 'POST' = 'GET',
  path = '/public/v2/websites/web_1',
) => {
  f.server.script(responder);
  const error = await f.client.request({ method, path }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
};

describe('ApiError messages say what to do and carry the request_id', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f?.close();
  });

  it.each([
    [
      'a 403 on a prompt import',
      apiError(403, 'forbidden', 'r1'),
      'POST',
      '/public/v2/websites/web_1/prompts:import',
      'access forbidden (403 forbidden, request_id r1): the API says "forbidden happened": the key may not be V2-eligible for prompt imports (it needs an owner-issued key with the prompts_write scope in a V2 integration lineage), or V2 may not be enabled for this workspace; ask a workspace owner',
    ],
    [
      // The server's words come first, quoted as inert text: its newline and forged log line stay inside the quotes.
      'a 403 whose message holds a newline, a quote and a forged log line',
      apiError(403, 'forbidden', 'r6', {}, 'This key lacks "read".\n{"level":"info","msg":"all good"}\u001b[2J'),
      'GET',
      '/public/v2/websites',
      'access forbidden (403 forbidden, request_id r6): the API says "This key lacks \\"read\\".\\n{\\"level\\":\\"info\\",\\"msg\\":\\"all good\\"}\\u001b[2J": V2 may not be enabled for this workspace, or the key may lack read scope; ask a workspace owner',
    ],
    [
      "a 401 with the server's message",
      apiError(401, 'unauthorized', 'r7', {}, 'Invalid API key.'),
      'GET',
      '/public/v2/websites',
      'API key rejected (401 unauthorized, request_id r7): the API says "Invalid API key.": check source.api_key or source.api_key_file',
    ],
    [
      'a 400 with details',
      json(400, {
        error: {
          code: 'invalid_request',
          message: 'invalid parameters',
          details: [{ field: 'limit', issue: 'must be 1 to 500' }],
        },
        meta: { request_id: 'r2' },
      }),
      'GET',
      '/public/v2/websites',
      'API request refused (400 invalid_request, request_id r2): GET /public/v2/websites: invalid parameters (limit: must be 1 to 500)',
    ],
    [
      'a 409',
      apiError(409, 'idempotency_conflict', 'r3', {}, 'key reused'),
      'POST',
      '/public/v2/websites/web_1/prompts:import',
      'idempotency conflict (409 idempotency_conflict, request_id r3): POST /public/v2/websites/web_1/prompts:import: key reused; this Idempotency-Key was already used for a different request',
    ],
    [
      'a 413',
      apiError(413, 'payload_too_large', 'r4', {}, 'too big'),
      'POST',
      '/public/v2/websites/web_1/prompts:import',
      'payload too large (413 payload_too_large, request_id r4): POST /public/v2/websites/web_1/prompts:import: too big; an import body may be at most 5 MiB',
    ],
    [
      'a 415',
      apiError(415, 'unsupported_media_type', 'r5', {}, 'json only'),
      'POST',
      '/public/v2/websites/web_1/prompts:import',
      'unsupported media type (415 unsupported_media_type, request_id r5): POST /public/v2/websites/web_1/prompts:import: json only; the API takes only application/json',
    ],
    [
      "a proxy's HTML error page, request_id from its header",
      (res) => {
        res.writeHead(418, { 'content-type': 'text/html', 'x-request-id': 'gw-77' });
        res.end('<html>teapot</html>');
      },
      'GET',
      '/public/v2/websites',
      'API request refused (418 no error code, request_id gw-77): GET /public/v2/websites',
    ],
  ] as [string, Responder, 'GET' | 'POST', string, string][])('%s', async (_what, responder, method, path, message) => {
    f = await clientFixture();
    const error = await failure(f, responder, method, path);
    expect(error.message).toBe(message);
    expect(error.exitCode).toBe(1);
  });

  it('keeps the code, status and details a caller branches on', async () => {
    f = await clientFixture();
    const error = await failure(
      f,
      json(400, {
        error: {
          code: 'invalid_request',
          message: 'bad items',
          details: [{ field: 'items[3].prompt_text', issue: 'too short' }],
        },
        meta: { request_id: 'r9' },
      }),
      'POST',
    );
    expect(error).toMatchObject({
      status: 400,
      code: 'invalid_request',
      requestId: 'r9',
      details: [{ field: 'items[3].prompt_text', issue: 'too short' }],
    });
  });

  it('getResource refuses a success whose data breaks the schema', async () => {
    f = await clientFixture();
    f.server.script(json(200, { data: { id: 'web_1' }, meta: { request_id: 'r-x' } }));
    const error = (await f.client
      .getResource('/public/v2/websites/web_1', {}, websiteSchema)
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 200, code: 'invalid_response', requestId: 'r-x' });
    expect(error.message).toMatch(
      /^invalid response \(200, request_id r-x\): GET \/public\/v2\/websites\/web_1: the body does not match the V2 contract: data\.domain_url: is missing; /,
    );
  });

  it('request() returns the body with integers beyond 2^53 exact', async () => {
    f = await clientFixture();
    f.server.script(json(200, '{"data":{"big":9007199254740993,"small":7},"meta":{"request_id":"r1"}}'));
    const response = await f.client.request({ method: 'GET', path: '/public/v2/websites/web_1/analytics' });
    expect(JSON.stringify(response.body)).toBe(
      '{"data":{"big":9007199254740993,"small":7},"meta":{"request_id":"r1"}}',
    );
    expect(response.requestId).toBe('r1');
  });

  it('a base URL with a path prefix is kept in front of every path', async () => {
    f = await clientFixture();
    const c = new ApiClient({ baseUrl: `${f.server.baseUrl}/gateway/`, apiKey: API_KEY, clock: f.clock });
    f.server.script(json(200, { data: {}, meta: { request_id: 'r1' } }));
    await c.request({ method: 'GET', path: '/public/v2/websites', query: { limit: '5', cursor: undefined } });
    await c.close();
    expect(f.server.received[0]!.url).toBe('/gateway/public/v2/websites?limit=5');
  });
});

describe('client options', () => {
  it.each([
    ['not a url', 'source.base_url is not a URL (got "not a url"); use e.g. https://api.example.com'],
    ['ftp://api.example.com', 'source.base_url must be an http(s) URL such as https://api.example.com (got ftp: URL)'],
    [
      'https://api.example.com/public/v2',
      'source.base_url must stop before the API version path: use https://api.example.com (the client adds /public/v2)',
    ],
    [
      'https://user:pw@api.example.com',
      'source.base_url must not carry credentials; put the key in source.api_key or source.api_key_file',
    ],
  ])('refuses base URL %j', (baseUrl, message) => {
    expect(() => new ApiClient({ baseUrl, apiKey: API_KEY })).toThrow(new ConfigError(message));
  });

  it('refuses an empty key', () => {
    expect(() => new ApiClient({ baseUrl: 'https://api.example.com', apiKey: ' ' })).toThrow(
      'the API key is empty: set source.api_key or source.api_key_file',
    );
  });
});
