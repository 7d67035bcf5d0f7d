/**
 * The API key never appears in a log line or an error, whatever goes wrong: every failure
 * path of the client runs against a server that echoes the Authorization header back in its
 * error messages, details and headers.
 */
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { websiteSchema } from '../../schemas/index.ts';
import { clearSecrets, redact, registerSecret } from '../../src/log/redact.ts';
import { API_KEY, clientFixture, type ClientFixture } from './support/client-fixture.ts';
import { json, reset, stall, truncated, type Responder } from './support/scripted-server.ts';
import { until } from './support/test-clock.ts';

/** An error envelope that quotes the credentials it received, as a careless gateway might. */
const echo =
  (status: number, code: string, headers: Record<string, string> = {}): Responder =>
  (res, req) => {
    const auth = String(req.headers.authorization);
    json(
      status,
      {
        error: {
          code,
          message: `bad credentials ${auth} (key ${auth.slice(7)})`,
          details: [{ field: auth, issue: `key ${auth.slice(7)}` }],
        },
        meta: { request_id: 'r-echo' },
      },
      { 'x-echo': auth, ...headers },
    )(res, req);
  };

/** An error envelope that quotes the start of the key it received, cut off with an ellipsis. */
const shortened =
  (status: number, code: string): Responder =>
  (res, req) => {
    const key = String(req.headers.authorization).slice('Bearer '.length);
    json(status, {
      error: { code, message: `invalid key ${key.slice(0, 12)}… for this workspace` },
      meta: { request_id: 'r-short' },
    })(res, req);
  };

describe('the API key never leaks', () => {
  let f: ClientFixture;
  afterEach(async () => {
    await f.close();
  });

  const paths: [string, Responder[]][] = [
    ['401', [echo(401, 'unauthorized')]],
    ['403', [echo(403, 'forbidden')]],
    ['404', [echo(404, 'not_found')]],
    ['400 with details', [echo(400, 'invalid_request')]],
    [
      '429 until retries run out',
      [echo(429, 'rate_limited', { 'retry-after': '1' }), echo(429, 'rate_limited', { 'retry-after': '1' })],
    ],
    ['500 until retries run out', [echo(500, 'internal_error'), echo(500, 'internal_error')]],
    ['connection resets', [reset, reset]],
    ['truncated bodies', [truncated, truncated]],
    ['a body that is not JSON', [json(200, `{"oops": "${API_KEY}`), json(200, `{"oops": "${API_KEY}`)]],
    // A gateway that shortens the key it quotes: a prefix of 8+ characters is masked too.
    ['an error quoting the key shortened', [shortened(404, 'not_found')]],
    // JSON.parse quotes the first characters of bad input: a fragment of the key redaction cannot spot.
    ['a body that is the bare key', [json(200, API_KEY), json(200, `{"a": ${API_KEY}}`)]],
    ['an envelope that breaks the contract', [json(200, { data: { id: API_KEY }, meta: { request_id: 'r1' } })]],
  ];

  it.each(paths)('%s', async (_what, responders) => {
    f = await clientFixture({ client: { maxRetries: 1 } });
    f.server.script(...responders);
    const error = await f.client.getResource('/public/v2/websites/web_1', {}, websiteSchema).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    // The server did receive the key (so the test can fail), and echoed it.
    expect(f.server.received[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const everything = [
      inspect(error, { depth: 10 }),
      (error as Error).stack ?? '',
      JSON.stringify(error),
      ...f.lines,
    ].join('\n');
    expect(everything).not.toContain(API_KEY);
    expect(everything).not.toContain(API_KEY.slice(0, 10));
    expect(f.lines.length).toBeGreaterThan(0);
  });

  it('a timeout', async () => {
    f = await clientFixture({ client: { maxRetries: 0, timeoutMs: 1_000 } });
    f.server.script(stall);
    const pending = f.client.request({ method: 'GET', path: '/public/v2/websites' }).catch((e: unknown) => e);
    await until(() => f.server.received.length === 1, 'the request');
    f.clock.advance(1_000);
    const error = await pending;
    expect((error as Error).message).toContain('request timed out');
    expect([inspect(error, { depth: 10 }), ...f.lines].join('\n')).not.toContain(API_KEY);
  });

  it('a key with a line break is refused without quoting it', async () => {
    f = await clientFixture();
    const { ApiClient } = await import('../../src/client/api-client.ts');
    const key = 'aivis_second_secret_key\n';
    const error = (() => {
      try {
        new ApiClient({ baseUrl: f.server.baseUrl, apiKey: key });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toBe(
      'the API key contains spaces, line breaks or non-ASCII characters: check source.api_key or source.api_key_file',
    );
    expect(f.server.received).toHaveLength(0);
  });
});

describe('redaction keeps a JSON line whole', () => {
  it('a bearer token just before an escaped quote is masked without eating the backslash', () => {
    const line = JSON.stringify({ msg: 'the API says "got Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig_part"' });
    const masked = redact(line);
    expect(JSON.parse(masked)).toEqual({ msg: 'the API says "got Bearer [REDACTED]"' });
  });
});

describe('redaction masks secrets, not the words around them', () => {
  afterEach(() => clearSecrets());

  it('keeps the API\'s own "known bearer key." and masks the key value it names', () => {
    registerSecret('aivis_sbx_0123456789abcdef');
    expect(
      redact(
        'the API says "Invalid API key: the Authorization header does not carry a known bearer key." (key aivis_sbx_0123456789abcdef)',
      ),
    ).toBe(
      'the API says "Invalid API key: the Authorization header does not carry a known bearer key." (key [REDACTED])',
    );
  });

  it.each([
    ['an unregistered API key', 'Authorization: Bearer sk_live_4f9a8b7c6d5e4f3a', 'Authorization: Bearer [REDACTED]'],
    [
      'a JWT, any case of the scheme',
      'authorization=bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln',
      'authorization=bearer [REDACTED]',
    ],
    ['base64 padding with the token', 'Bearer dGhpcyBpcyBhIHRva2Vu+/8== rest', 'Bearer [REDACTED] rest'],
    ['exactly 16 token68 characters', 'Bearer abcdefgh12345678 end', 'Bearer [REDACTED] end'],
  ])('masks %s', (_what, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it.each([
    ['a word of prose', 'no known bearer key.'],
    ['15 characters: too short for a token', 'Bearer abcdefgh1234567 here'],
    ['a long word that is not after Bearer', 'a key like verylongidentifier_without_scheme'],
  ])('keeps %s', (_what, text) => {
    expect(redact(text)).toBe(text);
  });
});
