/**
 * A DuckDB path as users get it wrong, run as the real `aivis` process against the sandbox: a
 * folder that is not there (a typo) is exit 2 for every command, naming the `mkdir -p` to run,
 * and creates nothing; `check` leaves no database file behind; a file or folder the user may not
 * write fails `check` with every fix at once. Those run as `nobody`: the suite runs as root,
 * whom file permissions do not bind (an immutable file binds root too).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';
import { writeSandboxConfig } from '../support/sandbox-config.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-duckdb-access-'));
// Another user must reach the folders and configs made inside.
chmodSync(dir, 0o755);
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 5, websites: 2, requestsPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOBODY = { uid: 65534, gid: 65534 };
/** Running as nobody takes root and util-linux's setpriv. */
const canRunAsNobody = process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0;

const config = (name: string, database: string) =>
  writeSandboxConfig(path.join(dir, `${name}.yaml`), sandbox.baseUrl, ['  type: duckdb', `  path: ${database}`]);

const aivis = (args: string[], as?: typeof NOBODY, key = sandbox.apiKey) =>
  runCli(args, { AIVIS_API_KEY: key }, { as }).done;

describe('a DuckDB path whose folder does not exist', () => {
  it('is exit 2 for every command that opens it, naming the folder and the mkdir -p to run; nothing is created', async () => {
    const folder = path.join(dir, 'warehuose', 'prod');
    const database = path.join(folder, 'aivis.duckdb');
    const file = config('typo', database);
    const message = `destination.path ${database}: the folder ${folder} does not exist, and aivis does not start a new warehouse where none was meant: create it with mkdir -p ${folder}, or correct destination.path`;
    const verify = ['verify', '--stream', 'mentions', '--since', '2026-01-01T00:00:00Z'];
    for (const verb of [['sync'], ['status'], ['state', 'show'], verify]) {
      const refused = await aivis([...verb, '--config', file]);
      expect({ verb, code: refused.code, stderr: jsonLines(refused.stderr) }).toEqual({
        verb,
        code: 2,
        stderr: [failureLine(message, 2)],
      });
    }
    const check = await aivis(['check', '--config', file]);
    expect({ code: check.code, stdout: check.stdout.split('\n').at(-2) }).toEqual({
      code: 2,
      stdout: `FAIL destination duckdb (file ${database}): ${message}`,
    });
    expect(existsSync(path.join(dir, 'warehuose'))).toBe(false);
  });
});

describe('check leaves no database file behind', () => {
  it('when the API key is refused, and when everything passes; the first sync creates the file', async () => {
    const folder = path.join(dir, 'fresh');
    mkdirSync(folder);
    const database = path.join(folder, 'aivis.duckdb');
    const file = config('fresh', database);
    const refused = await aivis(['check', '--config', file], undefined, 'not-the-key');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      `ok   destination duckdb (file ${database}): reachable, can create and write tables\n`,
    );
    expect(readdirSync(folder)).toEqual([]);
    const passed = await aivis(['check', '--config', file]);
    expect(passed.code).toBe(0);
    expect(readdirSync(folder)).toEqual([]);
    expect((await aivis(['sync', '--config', file])).code).toBe(0);
    expect(readdirSync(folder)).toEqual(['aivis.duckdb']);
  });
});

// Root runs the suite; these need root (to hand files over, to set chattr +i) and setpriv.
describe.skipIf(!canRunAsNobody)('a DuckDB file or folder the user may not write', () => {
  it('check lists every fix at once and sync fails the same way; after exactly those commands, check passes and sync succeeds', async () => {
    // A warehouse root made and synced, then handed to nobody without write permission on the file or its folder.
    const folder = path.join(dir, 'shared');
    mkdirSync(folder, { mode: 0o755 });
    const database = path.join(folder, 'aivis.duckdb');
    const file = config('shared', database);
    expect((await aivis(['sync', '--config', file])).code).toBe(0);
    chmodSync(database, 0o644);

    const fixes = [`chown nobody ${database}`, `chown nobody ${folder}`];
    const summary = `user nobody (uid 65534) cannot write the DuckDB file ${database}, its write-ahead log and new files in its folder, as every sync does; as their owner or root run these 2 commands (or set destination.path to a folder nobody may write)`;
    const check = await aivis(['check', '--config', file], NOBODY);
    expect(check.code).toBe(1);
    // After the config, the key and the served contract.
    expect(check.stdout.split('\n').slice(3, -1)).toEqual([
      `FAIL destination duckdb (file ${database}): ${summary}:`,
      ...fixes.map((fix) => `  ${fix}`),
    ]);
    const sync = await aivis(['sync', '--config', file], NOBODY);
    expect({ code: sync.code, stderr: jsonLines(sync.stderr).at(-1) }).toEqual({
      code: 1,
      stderr: failureLine(`${summary}: ${fixes.join('; ')};`, 1),
    });

    for (const fix of fixes) execFileSync('sh', ['-c', fix]);
    const passed = await aivis(['check', '--config', file], NOBODY);
    expect({ code: passed.code, stdout: passed.stdout }).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(
        `ok   destination duckdb (file ${database}): reachable, can create and write tables\n`,
      ),
    });
    expect((await aivis(['sync', '--config', file], NOBODY)).code).toBe(0);
  });

  it('a file the user owns but may not write is fixed with chmod, not chown', async () => {
    const folder = path.join(dir, 'own');
    mkdirSync(folder);
    chownSync(folder, NOBODY.uid, NOBODY.gid);
    const database = path.join(folder, 'aivis.duckdb');
    const file = config('own', database);
    expect((await aivis(['sync', '--config', file], NOBODY)).code).toBe(0);
    chmodSync(database, 0o400);
    const check = await aivis(['check', '--config', file], NOBODY);
    expect(check.code).toBe(1);
    expect(check.stdout.split('\n').slice(-2, -1)).toEqual([`  chmod u+rw ${database}`]);
  });

  it('an immutable file (chattr +i, which binds root too) is named with the chattr -i that frees it', async () => {
    const folder = path.join(dir, 'immutable');
    mkdirSync(folder);
    const database = path.join(folder, 'aivis.duckdb');
    const file = config('immutable', database);
    expect((await aivis(['sync', '--config', file])).code).toBe(0);
    execFileSync('chattr', ['+i', database]);
    try {
      const check = await aivis(['check', '--config', file]);
      expect({ code: check.code, fix: check.stdout.split('\n').at(-2) }).toEqual({
        code: 1,
        fix: `  chattr -i ${database}`,
      });
    } finally {
      execFileSync('chattr', ['-i', database]);
    }
    expect((await aivis(['check', '--config', file])).code).toBe(0);
  });
});

describe('a DuckDB path naming a file that is not a DuckDB database', () => {
  it('is exit 2 for check, sync, status and query, naming what the file is; the file is untouched and nothing loads elsewhere', async () => {
    const database = path.join(dir, 'prompts.csv');
    const csv = 'prompt,country\nbest crm,US\n';
    writeFileSync(database, csv);
    const file = config('csv', database);
    const message = `destination.path ${database} is a text file (.csv), not a DuckDB database; aivis loads only into the file named: point destination.path at a DuckDB file (or a path where none exists yet, to start one)`;
    for (const verb of [['sync'], ['status'], ['query', 'select 1']]) {
      const refused = await aivis([...verb, '--config', file]);
      expect({ verb, code: refused.code, stderr: jsonLines(refused.stderr) }).toEqual({
        verb,
        code: 2,
        stderr: [failureLine(message, 2)],
      });
    }
    const check = await aivis(['check', '--config', file]);
    expect({ code: check.code, stdout: check.stdout.split('\n').at(-2) }).toEqual({
      code: 2,
      stdout: `FAIL destination duckdb (file ${database}): ${message}`,
    });
    expect(readFileSync(database, 'utf8')).toBe(csv);
  });
});
