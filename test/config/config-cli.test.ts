/**
 * The loader as a user meets it: through the real CLI process, with the config named by
 * `--config` or by `AIVIS_CONFIG`; a bad config exits 2 with the loader's message on stderr.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureLine, jsonLines } from '../support/json-lines.ts';
import { writeConfig, yaml } from './config-files.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const LEAKED_KEY = 'sk_live_cli_secret_77';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function aivis(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', ...args],
      { cwd: ROOT, env },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

describe('aivis with a bad config', () => {
  const badConfig = () =>
    writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key: ${LEAKED_KEY}
    `);
  const expected = (file: string) => [
    failureLine(
      `${file}:3: source.api_key is written into the config file, and secrets are never read from the YAML text: put the key in an environment variable and write api_key: \${AIVIS_API_KEY}, or point api_key_file at a file that holds it`,
      2,
    ),
  ];

  it('exits 2 naming file and line, never printing the key (--config)', async () => {
    const file = await badConfig();
    const { AIVIS_CONFIG: _ignored, ...env } = process.env;
    const result = await aivis(['check', '--config', file], env);
    expect({ ...result, stderr: jsonLines(result.stderr) }).toEqual({ code: 2, stdout: '', stderr: expected(file) });
    expect(result.stderr).not.toContain(LEAKED_KEY);
  });

  it('reads the config named by AIVIS_CONFIG when --config is absent', async () => {
    const file = await badConfig();
    const result = await aivis(['streams'], { ...process.env, AIVIS_CONFIG: file });
    expect({ ...result, stderr: jsonLines(result.stderr) }).toEqual({ code: 2, stdout: '', stderr: expected(file) });
  });
});
