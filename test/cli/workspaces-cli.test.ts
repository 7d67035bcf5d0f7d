/**
 * --workspace and --shard as a user runs them: the real `aivis` process against the sandbox
 * over loopback and a DuckDB file, checking exit codes and the messages on stderr.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { queryDuckDbFile } from '../support/duckdb-file.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-workspaces-'));
let sandbox: Sandbox;
/** A second workspace's API: other seed, other website ids, other key. */
let other: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, websites: 2, requestsPerMinute: 0 });
  other = await startSandbox({ seed: 6, websites: 2, requestsPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
  await other.close();
  rmSync(dir, { recursive: true, force: true });
});

const aivis = (args: string[]) => runCli(args, { AIVIS_TEST_KEY: sandbox.apiKey, AIVIS_OTHER_KEY: other.apiKey }).done;

let configs = 0;
/**
 * A config naming `workspaces` under sources: (or source: when none), each with the sandbox's
 * key, except `globex`, which reads the other sandbox.
 */
function config(workspaces: string[] = []): { file: string; database: string } {
  const name = `c${++configs}`;
  const database = path.join(dir, `${name}.duckdb`);
  const file = path.join(dir, `${name}.yaml`);
  const block = (indent: string, workspace?: string) => [
    `${indent}base_url: ${workspace === 'globex' ? other.baseUrl : sandbox.baseUrl}`,
    `${indent}api_key: \${${workspace === 'globex' ? 'AIVIS_OTHER_KEY' : 'AIVIS_TEST_KEY'}}`,
    `${indent}requests_per_minute: 100`,
    `${indent}max_retries: 1`,
  ];
  const sources =
    workspaces.length === 0
      ? ['source:', ...block('  ')]
      : ['sources:', ...workspaces.flatMap((w) => [`  ${w}:`, ...block('    ', w)])];
  writeFileSync(file, [...sources, 'destination:', '  type: duckdb', `  path: ${database}`, ''].join('\n'));
  return { file, database };
}

describe('a config with one workspace runs as before', () => {
  it('sync --workspace default syncs it', async () => {
    const { file } = config();
    const result = await aivis(['sync', '--workspace', 'default', '--streams', 'websites', '--config', file]);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stderr).at(-1)).toMatchObject({ level: 'info', msg: 'run finished', status: 'succeeded' });
  });

  it('sync --shard 0/1 syncs it; a shard with no workspace exits 0 without opening the destination', async () => {
    const { file, database } = config(['acme']);
    const empty = await aivis(['sync', '--shard', '1/2', '--config', file]);
    expect(empty.code).toBe(0);
    expect(jsonLines(empty.stderr)).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: "--shard 1/2 selects none of the config's workspaces (acme): nothing to sync",
      }),
    ]);
    expect(existsSync(database)).toBe(false);
    const all = await aivis(['sync', '--shard', '0/1', '--streams', 'websites', '--config', file]);
    expect(all.code).toBe(0);
    expect(existsSync(database)).toBe(true);
  });

  it('state show --workspace takes the one workspace', async () => {
    const { file } = config(['acme']);
    expect((await aivis(['state', 'show', '--workspace', 'acme', '--config', file])).code).toBe(0);
  });
});

describe('a config with several workspaces', () => {
  it('check proves every workspace key', async () => {
    const { file } = config(['globex', 'acme']);
    const result = await aivis(['check', '--config', file]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter((line) => line.startsWith('ok   API'))).toEqual([
      `ok   API workspace acme ${sandbox.baseUrl}: key accepted, V2 enabled, read scope granted (websites visible)`,
      `ok   API workspace acme ${sandbox.baseUrl}: the served contract says what the bundled contract says`,
      `ok   API workspace globex ${other.baseUrl}: key accepted, V2 enabled, read scope granted (websites visible)`,
      `ok   API workspace globex ${other.baseUrl}: the served contract says what the bundled contract says`,
    ]);
  });

  it('sync runs every workspace at once: one summary each, each run finished, exit 0', async () => {
    const { file } = config(['acme', 'globex']);
    const result = await aivis(['sync', '--streams', 'websites', '--config', file]);
    expect(result.code).toBe(0);
    const headers = result.stdout.split('\n').filter((line) => line.startsWith('aivis sync'));
    expect(headers.map((line) => line.replace(/ run_\S+: .*/, ''))).toEqual(
      expect.arrayContaining(['aivis sync workspace acme', 'aivis sync workspace globex']),
    );
    const finished = jsonLines(result.stderr).filter((line) => line.msg === 'run finished');
    expect(finished.map((line) => [line.workspace, line.status]).sort()).toEqual([
      ['acme', 'succeeded'],
      ['globex', 'succeeded'],
    ]);
  });

  it('state show --workspace shows that workspace only, each entry naming it', async () => {
    const { file } = config(['acme', 'globex']);
    expect((await aivis(['sync', '--streams', 'websites,mentions', '--config', file])).code).toBe(0);
    const result = await aivis(['state', 'show', '--workspace', 'globex', '--config', file]);
    expect(result.code).toBe(0);
    const entries = jsonLines(result.stdout);
    expect(entries).toHaveLength(2);
    for (const entry of entries) expect(entry).toMatchObject({ workspace: 'globex', stream: 'mentions' });
    const ids = (other.truth.websites() as { id: string }[]).map((w) => w.id).sort();
    expect(entries.map((e) => e.scope).sort()).toEqual(ids);
  });

  it('backfill --workspace runs that workspace only', async () => {
    const { file } = config(['acme', 'globex']);
    const args = ['backfill', '--stream', 'mentions', '--since', '2026-01-01T00:00:00Z', '--workspace', 'globex'];
    const result = await aivis([...args, '--config', file]);
    expect(result.code).toBe(0);
    const finished = jsonLines(result.stderr).filter((line) => line.msg === 'run finished');
    expect(finished.map((line) => line.workspace)).toEqual(['globex']);
  });
});

describe('workspace flags: usage errors exit 2 naming the flag', () => {
  it.each([
    [['sync', '--shard', '4/4'], '--shard "4/4" has no shard 4: with 4 shards, I runs from 0 to 3'],
    [
      ['sync', '--shard', '$(JOB_COMPLETION_INDEX)/4'],
      '--shard "$(JOB_COMPLETION_INDEX)/4" is not I/N: write this shard\'s index, counted from 0, and the number of shards, like 0/4',
    ],
    [
      ['sync', '--workspace', 'acme', '--shard', '0/2'],
      '--workspace and --shard both choose workspaces: give one of them',
    ],
    [
      ['sync', '--workspace', 'acmee'],
      'unknown workspace "acmee" in --workspace, did you mean "acme"? (the config\'s workspaces: acme)',
    ],
    [['state', 'reset', '--workspace', ''], '--workspace is empty: name at least one workspace, or leave the flag out'],
    [
      ['backfill', '--stream', 'mentions', '--since', '2026-01-01T00:00:00Z', '--shard', '0/2'],
      "unknown flag --shard\nRun 'aivis --help' for usage.",
    ],
  ])('%j', async (args, message) => {
    const { file } = config(['acme']);
    const result = await aivis([...args, '--config', file]);
    expect(result.code).toBe(2);
    expect(jsonLines(result.stderr)).toEqual([failureLine(message, 2)]);
  });
});

describe('a failure before the runs of several workspaces start', () => {
  it('the shared tables cannot be created: every workspace gets its FAIL event and its metrics', async () => {
    const { file, database } = config(['acme', 'globex']);
    const lineageFile = path.join(dir, 'before-runs-lineage.jsonl');
    const textfile = path.join(dir, 'before-runs.prom');
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}metrics:\n  textfile: ${textfile}\nopenlineage:\n  transport: { type: file, path: ${lineageFile} }\n`,
    );
    // A table where sync keeps a view: DuckDB refuses to replace it, so the views cannot be created.
    await queryDuckDbFile(database, 'CREATE SCHEMA aivis; CREATE TABLE aivis.websites_current (id INTEGER)');
    const result = await aivis(['sync', '--streams', 'websites', '--config', file]);
    expect(jsonLines(result.stderr).at(-1), result.stderr).toEqual(
      failureLine(/websites_current" is a table, so sync will not replace it/, 2),
    );
    const events = jsonLines(readFileSync(lineageFile, 'utf8')).map((e) => [
      (e.job as { name: string }).name,
      e.eventType,
    ]);
    expect(events.filter(([, type]) => type === 'FAIL').sort()).toEqual([
      ['acme.sync', 'FAIL'],
      ['globex.sync', 'FAIL'],
    ]);
    const prom = readFileSync(textfile, 'utf8');
    for (const workspace of ['acme', 'globex'])
      expect(prom).toContain(`aivis_last_run_success{workspace="${workspace}"} 0`);
  });
});
