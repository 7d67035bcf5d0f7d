/**
 * What the import end-to-end tests share: a real sandbox on loopback whose rate limiter and
 * import processing run on the same virtual time as the client (every client wait advances
 * the sandbox clock, so no test sleeps), a config file, input files, and the command itself.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ApiClient } from '../../src/client/api-client.ts';
import type { Clock } from '../../src/client/clock.ts';
import { defaultJournalPath, type ImportOptions } from '../../src/import/import-options.ts';
import { importPrompts, type ImportPromptsArgs } from '../../src/cli/commands/import-prompts.ts';
import { AivisError } from '../../src/errors.ts';
import { createLogger, silentLogger } from '../../src/log/logger.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.ts';

export interface Harness {
  sandbox: Sandbox;
  clock: Clock & { slept: number[] };
  dir: string;
  config: string;
  websiteId: string;
  /** Runs `aivis import-prompts` with these flags; errors become their exit code and message. */
  run(args: Partial<ImportPromptsArgs>): Promise<{ code: number; out: string; error?: string }>;
  admin(method: 'PUT' | 'DELETE', route: string, body?: unknown): Promise<unknown>;
  file(name: string, text: string): Promise<string>;
  /** A real API client of the sandbox key on the virtual clock. */
  client(): ApiClient;
  /** Import options for `file` into the harness website, journal beside it. */
  options(file: string, overrides?: Partial<ImportOptions>): ImportOptions & { journal: string };
}

export async function startHarness(extraConfig = '', sandboxOptions: SandboxOptions = {}): Promise<Harness> {
  let now = Date.parse('2026-03-01T00:00:00Z');
  let sandbox: Sandbox | undefined;
  const slept: number[] = [];
  const clock: Clock & { slept: number[] } = {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
      sandbox?.clock.advance({ minutes: ms / 60_000 });
    },
    // Request deadlines never pass on their own in these tests.
    deadline: () => () => {},
  };
  sandbox = await startSandbox({ websites: 2, now: () => now, ...sandboxOptions });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-import-'));
  const keyFile = path.join(dir, 'api-key');
  await writeFile(keyFile, sandbox.apiKey, { mode: 0o600 });
  const config = path.join(dir, 'aivis.yaml');
  await writeFile(config, `source:\n  base_url: ${sandbox.baseUrl}\n  api_key_file: ${keyFile}\n${extraConfig}`);
  const websiteId = sandbox.addWebsites(1)[0]!;
  const started = sandbox;
  return {
    sandbox: started,
    clock,
    dir,
    config,
    websiteId,
    async run(args) {
      let out = '';
      const warehouse = args['from-table'] !== undefined || args['from-query'] !== undefined;
      const argv = { config, website: websiteId, ...(warehouse ? {} : { file: '' }), ...args } as ImportPromptsArgs;
      try {
        const code = await importPrompts(argv, {
          clock,
          write: (text) => (out += text),
          logger: process.env.AIVIS_TEST_IMPORT_LOG ? createLogger({ level: 'debug' }) : silentLogger,
        });
        return { code, out };
      } catch (error) {
        if (error instanceof AivisError) return { code: error.exitCode, out, error: error.message };
        throw error;
      }
    },
    async admin(method, route, body) {
      const response = await fetch(`${started.baseUrl}${route}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`admin ${method} ${route}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    client: () => new ApiClient({ baseUrl: started.baseUrl, apiKey: started.apiKey, clock, random: () => 0.5 }),
    options: (file, overrides = {}) => ({
      websiteId,
      file,
      validateOnly: false,
      mode: 'auto',
      defaults: {},
      journal: defaultJournalPath(file, overrides.websiteId ?? websiteId, overrides.validateOnly ?? false),
      ...overrides,
    }),
    file: async (name, text) => {
      const target = path.join(dir, name);
      await writeFile(target, text);
      return target;
    },
  };
}

/** `n` distinct prompts that classify confidently in mode auto, as CSV with a header. */
export function promptsCsv(n: number, start = 0): string {
  const rows = ['client_id,prompt_text'];
  for (let i = start; i < start + n; i++) rows.push(`p${i},What is the best CRM for team number ${i}?`);
  return `${rows.join('\n')}\n`;
}

/**
 * A harness whose config loads receipts into a fresh schema of the test PostgreSQL, and a
 * client to read it; call from `beforeAll`, and `close` in `afterAll` (drops the schema).
 */
export async function startHarnessWithPostgres(
  postgresUrl: string,
  sandboxOptions: SandboxOptions = {},
): Promise<{ h: Harness; db: pg.Client; schema: string; close(): Promise<void> }> {
  const schema = `imp_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  process.env.AIVIS_IMPORT_TEST_DATABASE_URL = postgresUrl;
  const h = await startHarness(
    `destination:\n  type: postgres\n  url: \${AIVIS_IMPORT_TEST_DATABASE_URL}\n  schema: ${schema}\n`,
    sandboxOptions,
  );
  const db = new pg.Client({ connectionString: postgresUrl });
  await db.connect();
  return {
    h,
    db,
    schema,
    async close() {
      await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await db.end();
      await h.sandbox.close();
    },
  };
}
