/**
 * --workspace and --shard as a user runs them: the real `aivis` process against the sandbox
 * over loopback and a DuckDB file, checking exit codes and the messages on stderr.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-workspaces-'));
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, websites: 2, requestsPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const aivis = (args: string[]) => runCli(args, { AIVIS_TEST_KEY: sandbox.apiKey }).done;

let configs = 0;
/** A config naming `workspaces` under sources: (or source: when none), each with the sandbox's key. */
function config(workspaces: string[] = []): { file: string; database: string } {
  const name = `c${++configs}`;
  const database = path.join(dir, `${name}.duckdb`);
  const file = path.join(dir, `${name}.yaml`);
  const block = (indent: string) => [
    `${indent}base_url: ${sandbox.baseUrl}`,
    `${indent}api_key: \${AIVIS_TEST_KEY}`,
    `${indent}requests_per_minute: 6000`,
    `${indent}max_retries: 1`,
  ];
  const sources =
    workspaces.length === 0
      ? ['source:', ...block('  ')]
      : ['sources:', ...workspaces.flatMap((w) => [`  ${w}:`, ...block('    ')])];
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
      `ok   API workspace globex ${sandbox.baseUrl}: key accepted, V2 enabled, read scope granted (websites visible)`,
    ]);
  });

  it.each([
    [['sync'], 'sync'],
    [['sync', '--workspace', 'acme'], 'sync'],
    [['backfill', '--stream', 'mentions', '--since', '2026-01-01T00:00:00Z', '--workspace', 'globex'], 'backfill'],
    [['state', 'show', '--workspace', 'acme'], 'state show'],
  ])('%j exits 2 until one destination keeps workspaces apart', async (args, verb) => {
    const { file, database } = config(['acme', 'globex']);
    const result = await aivis([...args, '--config', file]);
    expect(result.code).toBe(2);
    expect(jsonLines(result.stderr)).toEqual([
      failureLine(
        `${file} names 2 workspaces (acme, globex): aivis ${verb} cannot keep their rows, state and locks apart in one destination yet; until it can, give each workspace a config of its own, each with its own destination schema`,
        2,
      ),
    ]);
    expect(existsSync(database)).toBe(false);
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
      "Unknown argument: shard\nRun 'aivis --help' for usage.",
    ],
  ])('%j', async (args, message) => {
    const { file } = config(['acme']);
    const result = await aivis([...args, '--config', file]);
    expect(result.code).toBe(2);
    expect(jsonLines(result.stderr)).toEqual([failureLine(message, 2)]);
  });
});
