/**
 * The local files a config names are input like any other (docs/configuration.md#rules-of-the-file):
 * a key file that is a FIFO, a device or a huge file, and a config that is huge or holds only
 * a key, each end in one line naming the file, exit 2, within the image's heap, and nothing
 * of their content printed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';
import { childEnv } from '../support/child-env.ts';
import { configErrorLines, tempDir, writeConfig, yaml } from './config-files.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The container image's heap flags (Dockerfile): a whole-file read of a device ends there in an abort. */
const IMAGE_NODE_OPTIONS = '--max-semi-space-size=1 --max-old-space-size=256';

/** A config whose only key comes from `api_key_file: keyFile`. */
const keyFileConfig = (keyFile: string) => yaml`
  source:
    base_url: https://api.example.com
    api_key_file: ${keyFile}
`;

/** The loader's message for the config in `dir`, or a failure if it loads. */
async function loadError(file: string): Promise<string> {
  const error = await loadConfig(file, {}).then(
    () => new Error('the config loaded'),
    (e: unknown) => e as Error,
  );
  return error.message;
}

/** What `checkUnderImageHeap` must end with: exit 2, nothing on stdout, one line `message`. */
function refusedWith(message: string) {
  return { code: 2, stdout: '', stderr: [failureLine(message, 2)] };
}

/** `aivis check --config FILE` as the image runs it; what it printed and how it ended. */
function checkUnderImageHeap(file: string) {
  const guard = path.join(ROOT, 'test/setup/loopback-guard.ts');
  const child = spawn(process.execPath, ['--import', guard, 'src/cli/main.ts', 'check', '--config', file], {
    cwd: ROOT,
    env: childEnv({ NODE_OPTIONS: IMAGE_NODE_OPTIONS }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('api_key_file: regular files only, at most 64 KiB', () => {
  it('refuses a FIFO at once instead of waiting for a writer', { timeout: 10_000 }, async () => {
    const dir = await tempDir();
    const fifo = path.join(dir, 'key.fifo');
    execFileSync('mkfifo', [fifo]);
    const file = path.join(dir, 'config.yaml');
    await writeFile(file, keyFileConfig(fifo));
    expect(await loadError(file)).toBe(
      `${file}:3: source.api_key_file ${fifo} cannot be read (it is not a regular file but a FIFO, socket or device)`,
    );
  });

  it('refuses a file larger than 64 KiB without reading it (a 200 MB sparse file)', async () => {
    const dir = await tempDir();
    const big = path.join(dir, 'key.txt');
    const handle = await open(big, 'w');
    await handle.truncate(200 * 1024 * 1024);
    await handle.close();
    const file = path.join(dir, 'config.yaml');
    await writeFile(file, keyFileConfig(big));
    expect(await loadError(file)).toBe(
      `${file}:3: source.api_key_file ${big} cannot be read (it is larger than 64 KiB, far more than the file should hold)`,
    );
  });

  it('refuses /dev/zero with exit 2 under the image heap (no out-of-memory abort)', async () => {
    const file = await writeConfig(keyFileConfig('/dev/zero'));
    const result = await checkUnderImageHeap(file);
    expect({ ...result, stderr: jsonLines(result.stderr) }).toEqual(
      refusedWith(
        `${file}:3: source.api_key_file /dev/zero cannot be read (it is not a regular file but a FIFO, socket or device)`,
      ),
    );
  });
});

describe('the config file: at most 1 MiB, its content never echoed', () => {
  it('refuses a 12 MB config with exit 2 under the image heap', async () => {
    const file = await writeConfig(`# padding\n${`# ${'x'.repeat(1021)}\n`.repeat(12 * 1024)}`);
    const result = await checkUnderImageHeap(file);
    expect({ ...result, stderr: jsonLines(result.stderr) }).toEqual(
      refusedWith(
        `config file ${file} cannot be read (it is larger than 1 MiB, far more than the file should hold); pass --config FILE or set AIVIS_CONFIG`,
      ),
    );
  });

  it('refuses a FIFO as the config at once', { timeout: 10_000 }, async () => {
    const fifo = path.join(await tempDir(), 'config.yaml');
    execFileSync('mkfifo', [fifo]);
    expect(await loadError(fifo)).toBe(
      `config file ${fifo} cannot be read (it is not a regular file but a FIFO, socket or device); pass --config FILE or set AIVIS_CONFIG`,
    );
  });

  it('never quotes a config that holds only a key', async () => {
    const key = 'sk_live_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    const { file, lines } = await configErrorLines(`${key}\n`);
    expect(lines).toEqual([
      `${file}:1: the config must be a mapping with keys from: source, sources, destination, streams, schema_evolution, schema_evolution_max_columns, websites, state, openlineage, metrics (got one bare value, not shown: is this a key file rather than the config?)`,
    ]);
    expect(lines.join('\n')).not.toContain(key.slice(0, 4));
  });
});
