/**
 * `aivis sync` as it runs behind a corporate proxy: the real CLI process, `HTTPS_PROXY`
 * pointing at a forward proxy on loopback that logs what it forwarded, the API served over
 * https by a gateway whose certificate a private CA signed, trusted via NODE_EXTRA_CA_CERTS.
 * The API's name (`api.aivis.test`) resolves only inside the proxy.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { queryDuckDbFile } from '../support/duckdb-file.ts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { startForwardProxy, type ForwardProxy } from '../support/forward-proxy.ts';
import { finalMessage } from '../support/json-lines.ts';
import { startTlsFront, type TlsFront } from '../support/tls-front.ts';

const HOST = 'api.aivis.test';
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-net-'));
let sandbox: Sandbox;
let proxy: ForwardProxy;
let front: TlsFront;

beforeAll(async () => {
  sandbox = await startSandbox({
    seed: 5,
    websites: 3,
    requestsPerMinute: 0,
    mentionsPerAnalysis: 20,
    citationsPerAnalysis: 5,
  });
  proxy = await startForwardProxy();
  front = await startTlsFront(HOST, Number(new URL(sandbox.baseUrl).port));
});
afterAll(async () => {
  await front.close();
  await proxy.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  proxy.log.length = 0;
});

/** No proxy variable of the machine running the tests leaks into the child. */
const NO_PROXY_ENV = {
  http_proxy: undefined,
  HTTP_PROXY: undefined,
  https_proxy: undefined,
  HTTPS_PROXY: undefined,
  no_proxy: undefined,
  NO_PROXY: undefined,
};

let configs = 0;
function config(): { file: string; database: string } {
  const name = `n${++configs}`;
  const database = path.join(dir, `${name}.duckdb`);
  const file = path.join(dir, `${name}.yaml`);
  const lines = [
    'source:',
    `  base_url: https://${HOST}:${front.port}`,
    '  api_key: ${AIVIS_NET_KEY}',
    '  requests_per_minute: 100',
  ];
  writeFileSync(file, [...lines, 'destination:', '  type: duckdb', `  path: ${database}`, ''].join('\n'));
  return { file, database };
}

async function websiteRows(database: string): Promise<number> {
  return Number((await queryDuckDbFile(database, 'SELECT count(*) AS n FROM aivis.websites'))[0]!.n);
}

describe('aivis behind an HTTPS proxy', () => {
  it('syncs through HTTPS_PROXY (a CONNECT tunnel) to an API whose CA comes from NODE_EXTRA_CA_CERTS', async () => {
    const { file, database } = config();
    const env = {
      ...NO_PROXY_ENV,
      AIVIS_NET_KEY: sandbox.apiKey,
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: front.caFile,
    };
    const result = await runCli(['sync', '--config', file], env).done;
    expect(result.stderr).not.toContain('"level":"error"');
    expect(result.code).toBe(0);
    // Only tunnels: the proxy never saw a path, a header or the key, only where to connect.
    expect(proxy.log.length).toBeGreaterThanOrEqual(1);
    expect(new Set(proxy.log.map((e) => e.line))).toEqual(new Set([`CONNECT ${HOST}:${front.port}`]));
    expect(await websiteRows(database)).toBe(sandbox.truth.websites().length);
  });

  it('without the CA, fails at the first request, naming the certificate problem and NODE_EXTRA_CA_CERTS', async () => {
    const { file } = config();
    const env = {
      ...NO_PROXY_ENV,
      AIVIS_NET_KEY: sandbox.apiKey,
      HTTPS_PROXY: proxy.url,
      NODE_EXTRA_CA_CERTS: undefined,
    };
    const result = await runCli(['sync', '--config', file], env).done;
    expect(result.code).toBe(1);
    expect(finalMessage(result.stderr)).toContain(
      `TLS certificate not trusted (no complete response, request_id none): GET /public/v2/openapi.json: UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate; if the root CA is installed locally, try running Node.js with --use-system-ca; if a proxy or gateway presents your organisation's certificate, point NODE_EXTRA_CA_CERTS at that CA's PEM file`,
    );
    // A certificate does not get better on a second try: no retries, and no second request. The
    // served contract is the first read; a certificate it fails ends the run there, said once.
    expect(proxy.log.map((e) => e.line)).toEqual([`CONNECT ${HOST}:${front.port}`]);
  });
});
