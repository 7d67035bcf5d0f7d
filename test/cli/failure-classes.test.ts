/**
 * Every verb under every destination failure a user meets (bad password, unreachable server,
 * missing privilege, missing schema, lock held), run as the real `aivis` process against the
 * test PostgreSQL and the sandbox: whatever happens, the user reads one message that says what
 * to fix and the right exit code, and never a stack frame.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { type LockHolder, spawnLockHolder } from '../locks/spawn-lock-holder.ts';

const url = inject('postgresUrl');
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-failures-'));
const tag = randomBytes(3).toString('hex');
const synced = `fc_${tag}`;
const role = `fc_role_${tag}`;
const password = `pw-${randomBytes(8).toString('hex')}`;
const admin = new pg.Client({ connectionString: url });
let sandbox: Sandbox;
let websiteId: string;
let holder: LockHolder;
let closedPort: number;

/** A stack frame as Node prints it: `    at fn (file:line:col)`, `    at file:line:col`, `    at async ...`. */
const STACK_FRAME = /^\s*at .*(:\d+:\d+\)?|\(native\)|<anonymous>\)?)$/m;

function withUrl(change: (u: URL) => void): string {
  const u = new URL(url);
  change(u);
  return u.toString();
}

/** The destination URL comes from the environment, as a config must take it (never a password in the YAML). */
function config(name: string, schema: string): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      'source:',
      `  base_url: ${sandbox.baseUrl}`,
      '  api_key: ${AIVIS_TEST_KEY}',
      '  requests_per_minute: 6000',
      '  max_retries: 0',
      'destination:',
      '  type: postgres',
      '  url: ${FC_DATABASE_URL}',
      `  schema: ${schema}`,
      '',
    ].join('\n'),
  );
  return file;
}

async function aivis(args: string[], databaseUrl: string) {
  return runCli(args, { AIVIS_TEST_KEY: sandbox.apiKey, FC_DATABASE_URL: databaseUrl, AIVIS_LOG_LEVEL: 'warn' }).done;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, websites: 2, requestsPerMinute: 0 });
  websiteId = (sandbox.truth.websites() as { id: string }[])[0]!.id;
  await admin.connect();
  await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  // The schema every class but "missing schema" points at holds a finished sync.
  const first = await aivis(['sync', '--config', config('setup', synced)], url);
  expect(first.code, first.stderr).toBe(0);
  writeFileSync(path.join(dir, 'prompts.csv'), 'client_id,prompt_text\np1,What is the best CRM?\n');
});

afterAll(async () => {
  await holder?.kill();
  await admin.query(`DROP SCHEMA IF EXISTS ${synced} CASCADE`);
  for (const schema of (await admin.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'fcm_${tag}_%'`)).rows)
    await admin.query(`DROP SCHEMA ${schema.nspname} CASCADE`);
  await admin.query(`DROP OWNED BY ${role}`);
  await admin.query(`DROP ROLE ${role}`);
  await admin.end();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const SINCE = '2020-01-01T00:00:00Z';
/** Every verb that opens the destination, with the arguments a user would give it. */
const VERBS: Record<string, () => string[]> = {
  check: () => ['check'],
  streams: () => ['streams'],
  'dbt-sources': () => ['dbt-sources'],
  sync: () => ['sync'],
  backfill: () => ['backfill', '--streams', 'mentions', '--since', SINCE],
  verify: () => ['verify', '--streams', 'mentions', '--since', SINCE],
  'state show': () => ['state', 'show'],
  'state reset': () => ['state', 'reset'],
  status: () => ['status'],
  'import-prompts': () => ['import-prompts', '--website', websiteId, '--file', path.join(dir, 'prompts.csv')],
  query: () => ['query', 'SELECT count(*) FROM websites'],
};

interface FailureClass {
  /** The config's destination URL and schema for this class. */
  target(verb: string): { url: string; schema: string };
  /** What each verb must answer: exit code and the words of its last line; verbs not listed succeed. */
  expected: (verb: string) => { code: number; message?: RegExp };
}

const badPassword = withUrl((u) => (u.password = 'not-the-password'));
const CLASSES: Record<string, FailureClass> = {
  'bad password': {
    target: () => ({ url: badPassword, schema: synced }),
    expected: (verb) =>
      ['streams', 'dbt-sources'].includes(verb)
        ? { code: 0 }
        : { code: 1, message: /^Postgres at 127\.0\.0\.1:\d+ refused the password of user "postgres"/ },
  },
  unreachable: {
    target: () => ({ url: withUrl((u) => (u.port = String(closedPort))), schema: synced }),
    expected: (verb) =>
      ['streams', 'dbt-sources'].includes(verb)
        ? { code: 0 }
        : { code: 1, message: /^cannot reach Postgres at 127\.0\.0\.1:\d+: connection refused/ },
  },
  permission: {
    target: () => ({
      url: withUrl((u) => {
        u.username = role;
        u.password = password;
      }),
      schema: synced,
    }),
    expected: (verb) =>
      ['streams', 'dbt-sources'].includes(verb)
        ? { code: 0 }
        : { code: 1, message: new RegExp(`GRANT [A-Z, ]+ ON .*${synced}.* TO ${role}`) },
  },
  // Nothing synced yet: the writing verbs create the schema, the reading ones find nothing;
  // verify says the websites in scope were never synced (exit 4, docs/cli.md), not "equal".
  'missing schema': {
    target: (verb) => ({ url, schema: `fcm_${tag}_${verb.replace(/\W/g, '_')}` }),
    expected: (verb) =>
      verb === 'status'
        ? { code: 4, message: /^ {2}STALE: no run is recorded in _aivis_runs: nothing has been synced yet$/ }
        : verb === 'verify'
          ? { code: 4 }
          : verb === 'query'
            ? { code: 2, message: /^Postgres cannot run the statement: relation "websites" does not exist$/ }
            : { code: 0 },
  },
  'lock held': {
    target: () => ({ url, schema: synced }),
    expected: (verb) =>
      ['sync', 'backfill', 'state reset'].includes(verb)
        ? { code: 1, message: /another aivis run holds the lock/ }
        : { code: 0 },
  },
};

/** What the user reads last: `check`'s last FAIL line and the fixes under it, `status`'s last line, or the final stderr line's message. */
function lastWords(verb: string, result: { stdout: string; stderr: string }): string | undefined {
  const printed = result.stdout.split('\n').filter((line) => line.length > 0);
  if (verb === 'check') {
    // The last FAIL line with the fixes listed under it, one an indented line.
    const from = printed.findLastIndex((line) => line.startsWith('FAIL'));
    const fail = printed.slice(from).filter((line, i) => i === 0 || line.startsWith('  '));
    return from < 0 ? undefined : fail.join('\n').replace(/^FAIL destination postgres: /, '');
  }
  if (verb === 'status' && result.stderr === '') return printed.at(-1);
  const logged = result.stderr.split('\n').filter((line) => line.length > 0);
  return logged.length > 0 ? (JSON.parse(logged.at(-1)!) as { msg: string }).msg : undefined;
}

describe.each(Object.entries(CLASSES))('every verb, %s', (name, failure) => {
  beforeAll(async () => {
    if (name === 'lock held') holder = await spawnLockHolder('postgres', url, synced);
  });
  afterAll(async () => {
    if (name === 'lock held') await holder.kill();
  });

  it.each(Object.keys(VERBS))('%s: one message, the right exit code, no stack frame', async (verb) => {
    const target = failure.target(verb);
    const file = config(`${name}-${verb}`.replace(/\W/g, '_'), target.schema);
    const result = await aivis([...VERBS[verb]!(), '--config', file], target.url);
    const output = `${result.stdout}\n${result.stderr}`;
    expect(output).not.toMatch(STACK_FRAME);
    expect(output).not.toContain('unexpected error');
    expect(output).not.toContain(password);
    const expected = failure.expected(verb);
    expect({ code: result.code, last: expected.message ? lastWords(verb, result) : undefined }, output).toEqual({
      code: expected.code,
      last: expected.message ? expect.stringMatching(expected.message) : undefined,
    });
  });
});
