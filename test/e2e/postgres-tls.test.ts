/**
 * A managed Postgres with TLS, as a user connects to it: the real `aivis` process, the test
 * PostgreSQL behind a TLS front (the protocol's SSLRequest answered, a certificate from a
 * throwaway CA), `sslmode` and `sslrootcert` in destination.url read the way libpq reads them,
 * and none of node-postgres's SECURITY WARNING noise on stderr.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';
import { startPostgresTlsFront, type TlsFront } from '../support/tls-front.ts';

const url = inject('postgresUrl');
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-pgtls-'));
let sandbox: Sandbox;
let front: TlsFront & { sessions: () => number };
let config: string;

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 4, websites: 1, requestsPerMinute: 0 });
  front = await startPostgresTlsFront('127.0.0.1', Number(new URL(url).port));
  config = path.join(dir, 'aivis.yaml');
  writeFileSync(
    config,
    [
      'source:',
      `  base_url: ${sandbox.baseUrl}`,
      '  api_key: ${AIVIS_TEST_KEY}',
      'destination:',
      '  type: postgres',
      '  url: ${DATABASE_URL}',
      '  schema: aivis_tls',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await front.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `aivis check` with the test server's URL through the TLS front, `query` appended. */
function check(query: string) {
  const through = new URL(url);
  through.port = String(front.port);
  return runCli(['check', '--config', config], {
    AIVIS_TEST_KEY: sandbox.apiKey,
    DATABASE_URL: `${through.toString()}?${query.replace('<ca>', front.caFile)}`,
  }).done;
}

describe('Postgres over TLS', () => {
  it.each([
    ['sslmode=verify-full with the CA in sslrootcert', 'sslmode=verify-full&sslrootcert=<ca>'],
    ['sslmode=verify-ca with the CA in sslrootcert', 'sslmode=verify-ca&sslrootcert=<ca>'],
    ['sslmode=require: encrypted, the certificate not checked (as libpq)', 'sslmode=require'],
  ])('%s: check passes over TLS, and stderr holds no warning', async (_what, query) => {
    const before = front.sessions();
    const result = await check(query);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toContain('ok   destination postgres: reachable, can create and write tables');
    expect(front.sessions()).toBeGreaterThan(before);
  });

  it('sslmode=verify-full without the CA: one message saying what to add', async () => {
    const result = await check('sslmode=verify-full');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /FAIL destination postgres: Postgres at 127\.0\.0\.1:\d+ presented a TLS certificate aivis does not trust \([^)]+\): add sslrootcert=\/path\/to\/ca\.pem to destination\.url, the CA that signed it/,
    );
    expect(result.stderr).toBe('');
  });

  it.each([
    [
      'sslmode=verify-ca',
      "destination.url has sslmode=verify-ca without sslrootcert: add sslrootcert=/path/to/ca.pem, the CA that signed the server's certificate",
    ],
    [
      'sslmode=verify-full&sslrootcert=/nonexistent/ca.pem',
      "destination.url has sslrootcert=/nonexistent/ca.pem, which cannot be read (no such file): give the absolute path of the CA's PEM file",
    ],
    [
      'sslmode=requir',
      'destination.url has sslmode=requir (did you mean require?): use one of disable, prefer, require, verify-ca, verify-full',
    ],
  ])('%s is a config error (exit 2) naming the fix', async (query, message) => {
    const result = await check(query);
    expect(result.code).toBe(2);
    expect(jsonLines(result.stderr)).toEqual([failureLine(message, 2)]);
  });
});
