/**
 * A server's error text cannot forge our log lines: the real `aivis sync` against a loopback
 * server whose error message holds a newline, a fake JSON log line, a carriage return and a
 * screen-clearing escape. Off a terminal every stderr line is one JSON object; on a terminal
 * (a pseudo-terminal from `script`) control characters are shown escaped.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/client/clock.ts';
import { apiError, startScriptedServer, type ScriptedServer } from '../client/support/scripted-server.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FAKE_LINE = '{"ts":"2026-01-01T00:00:00.000Z","level":"info","msg":"run finished","status":"succeeded"}';
const SERVER_MESSAGE = `bad filter\n${FAKE_LINE}\r\u001b[2Jall clear`;
const KEY = 'sk_test_forged_lines_key';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-stderr-'));
let server: ScriptedServer;
let configFile: string;
beforeAll(async () => {
  server = await startScriptedServer(systemClock, apiError(400, 'invalid_request', 'req_forge', {}, SERVER_MESSAGE));
  configFile = path.join(dir, 'aivis.yaml');
  const lines = [
    'source:',
    `  base_url: ${server.baseUrl}`,
    '  api_key: ${AIVIS_TEST_KEY}',
    'destination:',
    '  type: duckdb',
    `  path: ${path.join(dir, 'forge.duckdb')}`,
    '',
  ];
  writeFileSync(configFile, lines.join('\n'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const ARGS = ['--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', 'sync', '--config'];
const expectedMessage = `API request refused (400 invalid_request, request_id req_forge): GET /public/v2/websites: ${SERVER_MESSAGE}`;

describe('off a terminal', () => {
  it('writes every stderr line as one JSON object; the last carries the server text inside its msg', async () => {
    const child = spawn(process.execPath, [...ARGS, configFile], {
      cwd: ROOT,
      env: { ...process.env, AIVIS_TEST_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('close', resolve));

    expect(code).toBe(1);
    const logs = jsonLines(stderr);
    expect(logs.at(-1)).toEqual(failureLine(expectedMessage, 1));
    expect(logs.filter((l) => l.status === 'succeeded')).toEqual([]);
    expect(stderr).not.toContain('\u001b');
    expect(stderr).not.toContain(KEY);
  });
});

const SCRIPT = '/usr/bin/script';
describe.skipIf(!existsSync(SCRIPT))(
  `on a terminal (skipped when ${SCRIPT}, which provides the pseudo-terminal, is absent)`,
  () => {
    it('prints "aivis: <message>" with control characters escaped and the server text indented under it', async () => {
      const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
      const command = [process.execPath, ...ARGS, configFile].map(quote).join(' ');
      const output = await new Promise<string>((resolve) => {
        execFile(
          SCRIPT,
          ['-q', '-e', '-c', command, '/dev/null'],
          { cwd: ROOT, env: { ...process.env, AIVIS_TEST_KEY: KEY } },
          (_error, stdout) => resolve(stdout),
        );
      });
      const lines = output.split('\r\n');
      const first = lines.findIndex((line) => line.startsWith('aivis: '));
      expect(lines.slice(first, first + 2)).toEqual([
        'aivis: API request refused (400 invalid_request, request_id req_forge): GET /public/v2/websites: bad filter',
        `  ${FAKE_LINE}\\r\\x1b[2Jall clear`,
      ]);
      expect(output).not.toContain('\u001b[2J');
      expect(output).not.toContain(KEY);
    });
  },
);
