/**
 * Messages a newcomer meets on a first mistake, as the real `aivis` process prints them: a YAML
 * indentation mistake named on its own line in plain words, `status` on a DuckDB path that does
 * not exist, an `https://` base URL to a server without TLS, a refused key said once per run.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';
import { writeSandboxConfig } from '../support/sandbox-config.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-messages-'));
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 3, websites: 1, requestsPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const aivis = (args: string[], env: NodeJS.ProcessEnv = { AIVIS_API_KEY: sandbox.apiKey }) => runCli(args, env).done;

function yamlFile(name: string, lines: readonly string[]): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, [...lines, ''].join('\n'));
  return file;
}

describe('a YAML indentation mistake', () => {
  it('is named on the line of the mistake, in plain words, exit 2', async () => {
    const deeper = yamlFile('deeper', [
      'source:',
      '  base_url: http://127.0.0.1:9',
      '   api_key: ${AIVIS_API_KEY}',
      'destination:',
      '  type: duckdb',
    ]);
    const result = await aivis(['check', '--config', deeper]);
    expect({ code: result.code, stderr: jsonLines(result.stderr) }).toEqual({
      code: 2,
      stderr: [
        failureLine(
          `${deeper}:3:4: YAML indentation error: "api_key" is indented 3 spaces, more than "base_url" on line 2 (2 spaces), ` +
            'so YAML reads it as part of the value above; keys of one section line up: indent it 2 spaces',
          2,
        ),
      ],
    });
    const between = yamlFile('between', [
      'source:',
      '  base_url: http://127.0.0.1:9',
      '  api_key: ${AIVIS_API_KEY}',
      ' destination:',
      '  type: duckdb',
    ]);
    const shallower = await aivis(['sync', '--config', between]);
    expect({ code: shallower.code, stderr: jsonLines(shallower.stderr) }).toEqual({
      code: 2,
      stderr: [
        failureLine(
          `${between}:4:2: YAML indentation error: "destination" is indented 1 space, which lines up with no key above it; ` +
            'indent it 0 spaces like "source" on line 1 or 2 spaces like "api_key" on line 3',
          2,
        ),
      ],
    });
  });
});

describe('status on a DuckDB path that does not exist', () => {
  it('names the file and says it does not exist, creating nothing (exit 4)', async () => {
    const mistyped = path.join(dir, 'aivs.duckdb');
    const config = writeSandboxConfig(path.join(dir, 'mistyped.yaml'), sandbox.baseUrl, [
      '  type: duckdb',
      `  path: ${mistyped}`,
    ]);
    const status = await aivis(['status', '--config', config], {});
    expect({ code: status.code, stderr: status.stderr, last: status.stdout.trimEnd().split('\n').at(-1) }).toEqual({
      code: 4,
      stderr: '',
      last: `  STALE: the DuckDB file ${mistyped} does not exist (is destination.path mistyped?): nothing has been synced there yet`,
    });
    expect(existsSync(mistyped)).toBe(false);
  });
});

describe('the API as a user may reach it wrongly', () => {
  it('https:// to a server without TLS: check and sync say so in plain words, no OpenSSL text (exit 1)', async () => {
    const port = new URL(sandbox.baseUrl).port;
    const config = writeSandboxConfig(path.join(dir, 'tls.yaml'), sandbox.baseUrl.replace('http:', 'https:'), [
      '  type: duckdb',
      `  path: ${path.join(dir, 'tls.duckdb')}`,
    ]);
    const said = `the server at 127.0.0.1:${port} does not speak TLS; use http:// in source.base_url if the server takes no TLS, or check the port`;
    const check = await aivis(['check', '--config', config]);
    expect({ code: check.code, api: check.stdout.split('\n')[1] }).toEqual({
      code: 1,
      api: `FAIL API https://127.0.0.1:${port}: not a TLS server (no complete response, request_id none): GET /public/v2/websites: ${said}`,
    });
    const sync = await aivis(['sync', '--config', config]);
    const output = `${sync.stdout}${sync.stderr}`;
    expect(output).not.toMatch(/SSL routines|\.c:\d+:/);
    expect({ code: sync.code, last: jsonLines(sync.stderr).at(-1) }).toEqual({
      code: 1,
      last: failureLine(
        `not a TLS server (no complete response, request_id none): GET /public/v2/openapi.json: ${said}`,
        1,
      ),
    });
    expect(output.split(said).length - 1).toBe(1);
  });

  it('a refused key is said once per sync, not also as a served-contract warning (exit 1)', async () => {
    const config = writeSandboxConfig(path.join(dir, 'refused.yaml'), sandbox.baseUrl, [
      '  type: duckdb',
      `  path: ${path.join(dir, 'refused.duckdb')}`,
    ]);
    const sync = await aivis(['sync', '--config', config], { AIVIS_API_KEY: 'aivis_sbx_not_a_key_of_this_sandbox' });
    const said = jsonLines(sync.stderr).filter((line) => String(line.msg).includes('API key rejected (401'));
    expect({ code: sync.code, said: said.length, last: jsonLines(sync.stderr).at(-1) }).toEqual({
      code: 1,
      said: 1,
      last: failureLine(
        /^API key rejected \(401 unauthorized, request_id req_\d+\): .*check source\.api_key or source\.api_key_file$/,
        1,
      ),
    });
  });
});
