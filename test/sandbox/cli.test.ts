import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema, listMetaSchema, websiteSchema } from '../../schemas/index.ts';
import { SANDBOX_VARIANTS } from '../../src/sandbox/index.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

function spawnCli(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The `base_url:` and `api_key:` lines the command prints first. */
async function printed(proc: ChildProcess): Promise<{ baseUrl: string; apiKey: string }> {
  const found: Record<string, string> = {};
  for await (const line of createInterface({ input: proc.stdout! })) {
    const m = /^(base_url|api_key): (\S+)$/.exec(line);
    if (m) found[m[1]!] = m[2]!;
    if (found.base_url && found.api_key) return { baseUrl: found.base_url, apiKey: found.api_key };
  }
  throw new Error('aivis sandbox exited before printing its base URL and key');
}

describe('aivis sandbox', () => {
  it('prints a base URL and a ready key; the key lists websites, no key is a 401 envelope; SIGTERM stops it', async () => {
    child = spawnCli(['sandbox', '--port', '0', '--websites', '3', '--seed', '7']);
    const { baseUrl, apiKey } = await printed(child);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await request(`${baseUrl}/public/v2/websites`, { headers: { authorization: `Bearer ${apiKey}` } });
    const body = (await ok.body.json()) as any;
    expect(ok.statusCode).toBe(200);
    listMetaSchema.parse(body.meta);
    expect(body.data).toHaveLength(3);
    for (const website of body.data) websiteSchema.parse(website);
    const denied = await request(`${baseUrl}/public/v2/websites`);
    expect(denied.statusCode).toBe(401);
    const error = errorEnvelopeSchema.parse(await denied.body.json());
    expect(error.error.code).toBe('unauthorized');
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('lists every variant in --help and refuses an unknown --variant with exit 2, naming the known ones', async () => {
    child = spawnCli(['sandbox', '--help']);
    let help = '';
    child.stdout!.on('data', (chunk) => (help += chunk));
    await once(child, 'exit');
    for (const name of Object.keys(SANDBOX_VARIANTS)) expect(help).toContain(`  ${name}: `);
    child = spawnCli(['sandbox', '--variant', 'nanosecond_timestamps,bogus']);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(jsonLines(stderr)).toEqual([
      failureLine(
        `--variant: unknown sandbox variant "bogus" (variants: ${Object.keys(SANDBOX_VARIANTS).join(', ')}).`,
        2,
      ),
    ]);
  });

  it('refuses a bad flag with exit 2 and a message naming it', async () => {
    child = spawnCli(['sandbox', '--websites', '-3']);
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(jsonLines(stderr)).toEqual([failureLine('--websites must be an integer from 0 to 10000 (got -3).', 2)]);
  });
});
