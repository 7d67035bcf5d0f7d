/**
 * The client behind a proxy: `HTTP_PROXY` / `HTTPS_PROXY` / `NO_PROXY` as undici reads them,
 * checked against a real forward proxy on loopback that logs what it forwarded. The API is
 * named `api.aivis.test`, a name only the proxy can resolve: a request that ignored the proxy
 * could not reach it (the loopback guard refuses the direct connection by name).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiClient } from '../../src/client/api-client.ts';
import { ApiError } from '../../src/client/api-error.ts';
import { ConfigError } from '../../src/errors.ts';
import { redact } from '../../src/log/redact.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';

let sandbox: Sandbox;
let proxy: ForwardProxy;
let port: string;
const clients: ApiClient[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 3, websites: 2, requestsPerMinute: 0 });
  proxy = await startForwardProxy();
  port = new URL(sandbox.baseUrl).port;
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});
afterEach(async () => {
  vi.unstubAllEnvs();
  proxy.log.length = 0;
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** Every proxy variable cleared, then `env` set: the machine running the tests may have its own. */
function proxyEnv(env: Record<string, string>): void {
  for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY'])
    vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
}

function client(baseUrl = `http://api.aivis.test:${port}`): ApiClient {
  const c = new ApiClient({ baseUrl, apiKey: sandbox.apiKey, maxRetries: 0 });
  clients.push(c);
  return c;
}

const listWebsites = (c: ApiClient) =>
  c.request({ method: 'GET', path: '/public/v2/websites', query: { limit: '10' } });

describe('ApiClient behind a proxy', () => {
  it('sends every request through HTTP_PROXY, which forwarded exactly them', async () => {
    proxyEnv({ HTTP_PROXY: proxy.url });
    const c = client();
    const first = await listWebsites(c);
    const one = await c.request({ method: 'GET', path: '/public/v2/websites/web_0001' }).catch((e: ApiError) => e);
    expect((first.body as { data: unknown[] }).data).toEqual(sandbox.truth.websites());
    expect(one).toBeInstanceOf(ApiError);
    expect(proxy.log).toEqual([
      { line: `GET http://api.aivis.test:${port}/public/v2/websites?limit=10` },
      { line: `GET http://api.aivis.test:${port}/public/v2/websites/web_0001` },
    ]);
  });

  it('reads the lower-case variable first, as curl does', async () => {
    proxyEnv({ http_proxy: proxy.url, HTTP_PROXY: 'http://127.0.0.1:9' });
    await listWebsites(client());
    expect(proxy.log.map((e) => e.line)).toEqual([`GET http://api.aivis.test:${port}/public/v2/websites?limit=10`]);
  });

  it('sends the proxy URL credentials as Proxy-Authorization, and redacts the password', async () => {
    const url = new URL(proxy.url);
    url.username = 'etl';
    url.password = 'pr0xy-s3cret';
    proxyEnv({ HTTP_PROXY: url.href });
    await listWebsites(client());
    expect(proxy.log.map((e) => e.proxyAuthorization)).toEqual([
      `Basic ${Buffer.from('etl:pr0xy-s3cret').toString('base64')}`,
    ]);
    expect(redact(`proxy ${url.href}`)).toBe(`proxy http://etl:[REDACTED]@${url.host}/`);
  });

  it.each([
    'api.aivis.test',
    'aivis.test',
    '.aivis.test',
    '*.aivis.test',
    'API.AIVIS.TEST',
    'other.example,api.aivis.test',
    '*',
  ])('goes direct, not through the proxy, when NO_PROXY=%s matches', async (noProxy) => {
    proxyEnv({ HTTP_PROXY: proxy.url, NO_PROXY: noProxy });
    const error = await listWebsites(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    // The direct attempt: refused by the test guard, since api.aivis.test is not loopback.
    expect((error as ApiError).message).toContain('loopback guard: connection to api.aivis.test refused');
    expect(proxy.log).toEqual([]);
  });

  it('matches NO_PROXY with a port only on that port', async () => {
    proxyEnv({ HTTP_PROXY: proxy.url, NO_PROXY: `api.aivis.test:${Number(port) + 1},notaivis.test,pi.aivis.test` });
    await listWebsites(client());
    expect(proxy.log).toHaveLength(1);
    proxyEnv({ HTTP_PROXY: proxy.url, NO_PROXY: `api.aivis.test:${port}` });
    await expect(listWebsites(client())).rejects.toThrow('loopback guard: connection to api.aivis.test refused');
    expect(proxy.log).toHaveLength(1);
  });

  it('never sends a loopback origin through the proxy', async () => {
    proxyEnv({ HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url });
    const answer = await listWebsites(client(sandbox.baseUrl));
    expect((answer.body as { data: unknown[] }).data).toHaveLength(2);
    expect(proxy.log).toEqual([]);
  });

  it('refuses a proxy variable that is not an http(s) URL, naming it (exit 2)', () => {
    proxyEnv({ HTTPS_PROXY: 'proxy.internal:3128' });
    const attempt = () => client('https://api.example.com');
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      'HTTPS_PROXY is not a proxy URL: write it with its scheme, e.g. HTTPS_PROXY=http://proxy.internal:3128 (user:password@ may precede the host)',
    );
  });
});
