import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema, listMetaSchema, websiteSchema } from '../../schemas/index.ts';
import { SANDBOX_VARIANTS } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';

let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

/** Starts `aivis <args>` (stopped after the test if still running); `done` waits for its output to close. */
function spawnCli(args: string[]) {
  const started = runCli(args, {});
  child = started.child;
  return started;
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

/** Every line the command prints up to and including `Stop with Ctrl-C.`. */
async function summary(proc: ChildProcess): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: proc.stdout! })) {
    lines.push(line);
    if (line === 'Stop with Ctrl-C.') return lines;
  }
  throw new Error(`aivis sandbox exited after printing:\n${lines.join('\n')}`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const printedValue = (lines: string[], label: string) => lines.find((l) => l.startsWith(`${label}: `))!.split(' ')[1]!;

describe('the data clock of aivis sandbox', () => {
  it("follows this machine's clock by default: right after a sync, status --max-staleness 6h is fresh", async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const lines = await summary(spawnCli(['sandbox', '--port', '0', '--seed', '1']).child);
    const after = Date.now();
    // docs/sandbox.md shows these lines for port 8080, `<...>` where they vary.
    const shown = /```text\n(Public API V2 at [^`]*)```/.exec(readFileSync('docs/sandbox.md', 'utf8'))![1]!;
    const port = new URL(printedValue(lines, 'base_url')).port;
    expect(lines.slice(-4).join('\n')).toMatch(
      new RegExp(`^${escapeRegExp(shown.trimEnd().replaceAll(':8080', `:${port}`)).replaceAll('<\\.\\.\\.>', '.+')}$`),
    );
    const dataTime = Date.parse(
      /; data time (\S+)\.$/.exec(lines.find((l) => l.startsWith('Public API V2 at '))!)![1]!,
    );
    expect(dataTime).toBeGreaterThanOrEqual(before);
    expect(dataTime).toBeLessThanOrEqual(after);
    expect(lines.at(-2)).toBe(
      "Data time follows this machine's clock: new analyses arrive as time passes (--clock T pins it at T).",
    );
    expect(lines.some((l) => l.startsWith('Advance data time'))).toBe(false);

    const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-sandbox-clock-'));
    try {
      const config = path.join(dir, 'aivis.yaml');
      const source = `source:\n  base_url: ${printedValue(lines, 'base_url')}\n  api_key: \${AIVIS_API_KEY}\n`;
      await writeFile(config, `${source}destination:\n  type: duckdb\n  path: ${path.join(dir, 'w.duckdb')}\n`);
      const env = { AIVIS_API_KEY: printedValue(lines, 'api_key') };
      expect((await runCli(['sync', '--config', config], env).done).code).toBe(0);
      const status = await runCli(['status', '--config', config, '--max-staleness', '6h'], env).done;
      expect(status.code).toBe(0);
      expect(status.stdout.split('\n')[0]).toBe(
        'aivis status: fresh: every stream complete within 6h; last run succeeded',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--clock pins data time at the timestamp given; it then moves only when advanced', async () => {
    const lines = await summary(spawnCli(['sandbox', '--port', '0', '--clock', '2026-03-01T12:00:00Z']).child);
    const baseUrl = printedValue(lines, 'base_url');
    expect(lines.find((l) => l.startsWith('Public API V2 at '))).toMatch(/; data time 2026-03-01T12:00:00Z\.$/);
    expect(lines.slice(-3)).toEqual([
      'Data time is pinned (--clock): it moves only when advanced.',
      `Advance data time: curl -X POST -d '{"days":1}' ${baseUrl}/_sandbox/advance`,
      'Stop with Ctrl-C.',
    ]);
    const now = async () => ((await (await request(`${baseUrl}/_sandbox`)).body.json()) as any).data.now;
    expect(await now()).toBe('2026-03-01T12:00:00Z');
    await request(`${baseUrl}/_sandbox/advance`, { method: 'POST', body: '{"days":1}' });
    expect(await now()).toBe('2026-03-02T12:00:00Z');
  });

  it('refuses a --clock that is not a timestamp with exit 2, naming the flag', async () => {
    const { code, stderr } = await spawnCli(['sandbox', '--clock', '2026-03-01']).done;
    expect(code).toBe(2);
    expect(jsonLines(stderr)).toEqual([
      failureLine('--clock "2026-03-01" is not a UTC timestamp such as 2026-01-01T00:00:00Z.', 2),
    ]);
  });
});

describe('aivis sandbox', () => {
  it('prints a base URL and a ready key; the key lists websites, no key is a 401 envelope; SIGTERM stops it', async () => {
    const { child, done } = spawnCli(['sandbox', '--port', '0', '--websites', '3', '--seed', '7']);
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
    expect((await done).code).toBe(0);
  });

  it('prints the restricted keys, labelled, and each gets the answer its label says', async () => {
    const { child } = spawnCli(['sandbox', '--port', '0', '--seed', '3']);
    const lines: string[] = [];
    for await (const line of createInterface({ input: child.stdout! })) {
      lines.push(line);
      if (line.startsWith('v2_disabled_key: ')) break;
    }
    const keyOf = (label: string) => /^\S+: (\S+)/.exec(lines.find((l) => l.startsWith(`${label}: `)) ?? '')?.[1];
    expect(lines.slice(2).map((line) => line.replace(/: aivis_sbx_\w+ /, ': <key> '))).toEqual([
      'read_only_key: <key>  # read scope only: syncs work, prompt imports get 403',
      'no_read_scope_key: <key>  # prompts_write without read: every read gets 403',
      'v2_disabled_key: <key>  # a workspace without V2: every call gets 403',
    ]);
    const baseUrl = keyOf('base_url')!;
    const read = async (key: string, path = '/public/v2/websites', method: 'GET' | 'POST' = 'GET') => {
      const response = await request(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(method === 'POST' ? { body: '{"prompts":[]}' } : {}),
      });
      const body = (await response.body.json()) as { data?: { id: string }[]; error?: { message: string } };
      return { status: response.statusCode, body };
    };
    const listed = await read(keyOf('read_only_key')!);
    expect(listed.status).toBe(200);
    const imported = await read(
      keyOf('read_only_key')!,
      `/public/v2/websites/${listed.body.data![0]!.id}/prompts:import`,
      'POST',
    );
    expect(imported.status).toBe(403);
    expect((await read(keyOf('no_read_scope_key')!)).body.error?.message).toBe(
      'This API key lacks the read scope; use a key with read scope.',
    );
    expect((await read(keyOf('v2_disabled_key')!)).body.error?.message).toBe(
      'Public API V2 is not enabled for this workspace; it is enabled per workspace on request.',
    );
  });

  it('lists every variant in its help and says nothing of --config: it reads none', async () => {
    const help = (await spawnCli(['sandbox', '--help']).done).stdout;
    expect(help).toContain('--seed');
    expect(help).not.toContain('--config');
    for (const name of Object.keys(SANDBOX_VARIANTS)) expect(help).toContain(`  ${name}: `);
  });

  it.each([
    [
      'an unknown --variant with exit 2, naming the known ones',
      'nanosecond_timestamps,bogus',
      'unknown sandbox variant "bogus"',
    ],
    [
      'a misspelt --variant with exit 2, naming the closest one',
      'nanosecond_timestamp',
      'unknown sandbox variant "nanosecond_timestamp", did you mean nanosecond_timestamps?',
    ],
  ])('refuses %s', async (_, variant, message) => {
    const { code, stderr } = await spawnCli(['sandbox', '--variant', variant]).done;
    expect(code).toBe(2);
    expect(jsonLines(stderr)).toEqual([
      failureLine(`--variant: ${message} (variants: ${Object.keys(SANDBOX_VARIANTS).join(', ')}).`, 2),
    ]);
  });

  it('names a port already in use and --port, exit 1', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const { code, stdout, stderr } = await spawnCli(['sandbox', '--port', String(port)]).done;
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(jsonLines(stderr)).toEqual([
        failureLine(
          `port ${port} on 127.0.0.1 is already in use: stop what listens there, or choose another with --port (--port 0 takes a free one)`,
          1,
        ),
      ]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('refuses a bad flag with exit 2 and a message naming it', async () => {
    const { code, stderr } = await spawnCli(['sandbox', '--websites', '-3']).done;
    expect(code).toBe(2);
    expect(jsonLines(stderr)).toEqual([failureLine('--websites must be an integer from 0 to 10000 (got "-3").', 2)]);
  });

  it('names the word it got for a flag that is not a number, not NaN', async () => {
    const { code, stderr } = await spawnCli(['sandbox', '--port', 'abc']).done;
    expect(code).toBe(2);
    expect(jsonLines(stderr)).toEqual([failureLine('--port must be an integer from 0 to 65535 (got "abc").', 2)]);
  });
});
