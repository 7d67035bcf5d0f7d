/**
 * Each verb resolves only the secrets it uses, as a user runs it (the real `aivis` process,
 * the sandbox over loopback, a DuckDB file): a monitoring probe (`status`), `streams` and
 * `state show` run without the API key in the environment, and `sync --workspace a` without
 * the key of workspace b. And `check` proves every privilege `sync` uses on the destination:
 * on a real Postgres, a role that owns none of the tables gets every missing GRANT at once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';
import { writeSandboxConfig } from '../support/sandbox-config.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-least-'));
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 9, websites: 2, requestsPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The environment holds only the keys named: the others are simply not there. */
const aivis = (args: string[], keys: Record<string, string>) => runCli(args, keys).done;

function config(name: string, workspaces: readonly string[]): string {
  const file = path.join(dir, `${name}.yaml`);
  const block = (indent: string, variable: string) => [
    `${indent}base_url: ${sandbox.baseUrl}`,
    `${indent}api_key: \${${variable}}`,
    `${indent}requests_per_minute: 100`,
  ];
  const sources =
    workspaces.length === 0
      ? ['source:', ...block('  ', 'AIVIS_API_KEY')]
      : ['sources:', ...workspaces.flatMap((w) => [`  ${w}:`, ...block('    ', `AIVIS_KEY_${w.toUpperCase()}`)])];
  const database = path.join(dir, `${name}.duckdb`);
  writeFileSync(file, [...sources, 'destination:', '  type: duckdb', `  path: ${database}`, ''].join('\n'));
  return file;
}

describe('verbs that make no API call need no API key', () => {
  it('status, streams, dbt-sources and state show run without AIVIS_API_KEY; sync and check still ask for it', async () => {
    const file = config('probe', []);
    expect((await aivis(['sync', '--config', file], { AIVIS_API_KEY: sandbox.apiKey })).code).toBe(0);
    const requests = sandbox.stats.requests;

    const status = await aivis(['status', '--config', file], {});
    expect({ code: status.code, stderr: status.stderr }).toEqual({ code: 0, stderr: '' });
    expect(status.stdout).toMatch(
      /^aivis status: ok: last run succeeded; stream ages not judged \(give --max-staleness, e\.g\. 6h\)\n/,
    );
    const streams = await aivis(['streams', '--config', file], {});
    expect(streams.code).toBe(0);
    expect(streams.stdout).toContain('CREATE TABLE IF NOT EXISTS');
    const dbt = await aivis(['dbt-sources', '--config', file], {});
    expect(dbt.code).toBe(0);
    expect(dbt.stdout).toContain('sources:');
    const state = await aivis(['state', 'show', '--config', file], {});
    expect(state.code).toBe(0);
    expect(jsonLines(state.stdout).length).toBeGreaterThan(0);
    expect(sandbox.stats.requests).toBe(requests);

    const missing = `${file}:3: source.api_key refers to \${AIVIS_API_KEY}, which is not set in the environment`;
    for (const verb of [['sync'], ['check']]) {
      const refused = await aivis([...verb, '--config', file], {});
      expect({ verb, code: refused.code, stderr: jsonLines(refused.stderr) }).toEqual({
        verb,
        code: 2,
        stderr: [failureLine(missing, 2)],
      });
    }
  });
});

describe('sync --workspace reads only the selected workspaces’ keys', () => {
  it("syncs acme with globex's key absent, and still refuses a sync of globex without it", async () => {
    const file = config('workspaces', ['acme', 'globex']);
    const acme = await aivis(['sync', '--workspace', 'acme', '--streams', 'websites', '--config', file], {
      AIVIS_KEY_ACME: sandbox.apiKey,
    });
    expect(acme.code).toBe(0);
    expect(jsonLines(acme.stderr).at(-1)).toMatchObject({ msg: 'run finished', workspace: 'acme' });

    const globex = await aivis(['sync', '--workspace', 'globex', '--config', file], { AIVIS_KEY_ACME: sandbox.apiKey });
    expect(globex.code).toBe(2);
    expect(jsonLines(globex.stderr)).toEqual([
      failureLine(
        `${file}:8: sources.globex.api_key refers to \${AIVIS_KEY_GLOBEX}, which is not set in the environment`,
        2,
      ),
    ]);
    const shard = await aivis(['sync', '--shard', '0/2', '--streams', 'websites', '--config', file], {
      AIVIS_KEY_ACME: sandbox.apiKey,
    });
    expect(shard.code).toBe(0);
  });
});

describe('check proves every privilege sync uses on Postgres', () => {
  const url = inject('postgresUrl');
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  afterAll(() => admin.end());

  /** A Postgres config whose URL (a secret) comes from `DATABASE_URL`. */
  const postgresConfig = (name: string, schema: string) =>
    writeSandboxConfig(path.join(dir, `${name}.yaml`), sandbox.baseUrl, [
      '  type: postgres',
      '  url: ${DATABASE_URL}',
      `  schema: ${schema}`,
    ]);

  it('a role that owns none of the tables: check lists every missing GRANT at once; after exactly those, check passes and sync succeeds', async () => {
    const schema = `least_${randomBytes(4).toString('hex')}`;
    const config = postgresConfig('postgres', schema);
    // The tables exist, made by another role (the admin's first sync).
    const owner = await aivis(['sync', '--config', config], { AIVIS_API_KEY: sandbox.apiKey, DATABASE_URL: url });
    expect({ code: owner.code, stderr: owner.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    // The loader may use the schema and write every table but the lock's, and creates nothing.
    const role = `loader_${randomBytes(4).toString('hex')}`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    for (const statement of [
      `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`,
      `GRANT USAGE ON SCHEMA ${schema} TO ${role}`,
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`,
      `REVOKE INSERT, DELETE ON ${schema}._aivis_lock FROM ${role}`,
    ])
      await admin.query(statement);
    const loaderUrl = new URL(url);
    loaderUrl.username = role;
    loaderUrl.password = password;
    const key = { AIVIS_API_KEY: sandbox.apiKey, DATABASE_URL: loaderUrl.toString() };

    const { rows } = await admin.query<{ name: string; kind: string }>(
      `SELECT table_name AS name, CASE table_type WHEN 'VIEW' THEN 'VIEW' ELSE 'TABLE' END AS kind
       FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name COLLATE "C"`,
      [schema],
    );
    expect(rows.length).toBeGreaterThan(10);
    const fixes = [
      `GRANT CREATE ON SCHEMA ${schema} TO ${role};`,
      ...rows.flatMap(({ name, kind }) => [
        ...(name === '_aivis_lock' ? [`GRANT INSERT, DELETE ON TABLE ${schema}._aivis_lock TO ${role};`] : []),
        `ALTER ${kind} ${schema}.${name} OWNER TO ${role};`,
      ]),
    ];
    const refused = await aivis(['check', '--config', config], key);
    expect(refused.code).toBe(1);
    // After the config, the key and the served contract.
    // The tables schema evolution adds columns to, in the catalog's order: a sync keeps their columns until the loader owns them.
    const evolving = [
      'analytics_competitors',
      'analytics_history',
      'analytics_latest',
      'analytics_providers',
      'citations',
      'mentions',
      'websites',
    ];
    expect(refused.stdout.split('\n').slice(3, -1)).toEqual([
      `FAIL destination postgres: Postgres user "${role}" lacks privileges that sync uses in database postgres, schema ${schema}; as each object's owner or a superuser, run these ${fixes.length} statements:`,
      ...fixes.map((fix) => `  ${fix}`),
      `warn destination postgres: until then, schema evolution may not add columns to ${evolving.join(', ')}: a sync keeps their columns, and fields the served contract adds stay in _raw there`,
    ]);
    expect(refused.stdout).not.toContain(password);
    // Under freeze no column is ever added, so no table is named.
    const frozenConfig = writeSandboxConfig(path.join(dir, 'postgres-frozen.yaml'), sandbox.baseUrl, [
      '  type: postgres',
      '  url: ${DATABASE_URL}',
      `  schema: ${schema}`,
      'schema_evolution: freeze',
    ]);
    const frozen = await aivis(['check', '--config', frozenConfig], key);
    expect(frozen.code).toBe(1);
    expect(frozen.stdout.split('\n').slice(3, -1)).toEqual(refused.stdout.split('\n').slice(3, -2));

    for (const fix of fixes) await admin.query(fix);
    const passed = await aivis(['check', '--config', config], key);
    expect({ code: passed.code, stdout: passed.stdout }).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('ok   destination postgres: reachable, can create and write tables\n'),
    });
    const sync = await aivis(['sync', '--config', config], key);
    expect({ code: sync.code, stderr: sync.stderr }).toMatchObject({ code: 0 });
  });
});
