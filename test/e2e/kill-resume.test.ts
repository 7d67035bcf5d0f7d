/**
 * The real `aivis sync` process, killed with SIGKILL part-way, then run again: the result
 * equals the sandbox's truth with no row lost and none twice. Also: a saved cursor the API
 * refuses restarts the scan from the saved frontier, and a second run cannot overlap the
 * first. Sandbox and Postgres are real; the CLI runs as a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { runsTable, stateTable } from '../../src/tables/index.ts';
import { finalMessage } from '../support/json-lines.ts';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { until } from '../support/until.ts';
import { openWorld, SANDBOX } from './sync-suite.ts';

const url = inject('postgresUrl');
const target = postgresTarget(url);
const { pool } = target;
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-kill-'));
afterAll(async () => {
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Enough evidence that flushes (5,000 rows on Postgres) commit mid-scan cursors before a kill. */
const BIG = { ...SANDBOX, mentionsPerAnalysis: 1500, citationsPerAnalysis: 300 };
const KEY_ENV = 'AIVIS_E2E_API_KEY';

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function startCli(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<Finished> } {
  const child = spawn(process.execPath, ['--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<Finished>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

describe('killed and resumed sync (real CLI process, real Postgres)', () => {
  let world: Awaited<ReturnType<typeof openWorld>>;
  let configPath: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    world = await openWorld(target, BIG);
    configPath = path.join(dir, `${world.schema}.yaml`);
    writeFileSync(
      configPath,
      [
        'source:',
        `  base_url: ${world.sandbox.baseUrl}`,
        `  api_key: \${${KEY_ENV}}`,
        '  requests_per_minute: 6000',
        'destination:',
        '  type: postgres',
        '  url: ${AIVIS_E2E_DATABASE_URL}',
        `  schema: ${world.schema}`,
        '',
      ].join('\n'),
    );
    env = { [KEY_ENV]: world.sandbox.apiKey, AIVIS_E2E_DATABASE_URL: url };
  });
  afterEach(async () => {
    await world.close();
  });

  const savedCursors = async () => {
    const { rows } = await pool
      .query(`SELECT count(*)::int AS n FROM "${world.schema}"."_aivis_state" WHERE state->>'cursor' IS NOT NULL`)
      .catch(() => ({ rows: [{ n: 0 }] }));
    return rows[0].n as number;
  };

  it('equals the truth after SIGKILLs at several points, with no duplicates', async () => {
    // Kill once right after the listing, once after a mid-scan checkpoint, once later on; each
    // point counts from the child's own start, so every child gets going before it dies.
    const killPoints: ((requestsAtStart: number) => Promise<boolean>)[] = [
      async (at) => world.sandbox.stats.requests >= at + 3,
      async (at) => world.sandbox.stats.requests >= at + 5 && (await savedCursors()) >= 1,
      async (at) => world.sandbox.stats.requests >= at + 20 && (await savedCursors()) >= 1,
    ];
    for (const point of killPoints) {
      const requestsAtStart = world.sandbox.stats.requests;
      const { child, done } = startCli(['sync', '--config', configPath], env);
      await until(async () => (await point(requestsAtStart)) || child.exitCode !== null, 'the kill point');
      child.kill('SIGKILL');
      const killed = await done;
      expect(killed.signal ?? `exited ${killed.code}: ${killed.stderr}`).toBe('SIGKILL');
    }
    const final = startCli(['sync', '--config', configPath], env);
    const result = await final.done;
    expect(result.stderr).not.toContain(world.sandbox.apiKey);
    expect(result.stdout).not.toContain(world.sandbox.apiKey);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/: succeeded in /);
    await world.expectTruth();
    // The killed runs could not record their end; the run after them marked them.
    expect((await world.rows(runsTable)).map((r) => r.status).sort()).toEqual([
      'abandoned',
      'abandoned',
      'abandoned',
      'succeeded',
    ]);
    const state = await world.rows(stateTable);
    for (const row of state) expect((row.state as { cursor: string | null }).cursor).toBeNull();
  });

  it('stops between pages on SIGTERM: saves what it read, records the stop, releases the lock', async () => {
    const { child, done } = startCli(['sync', '--config', configPath], env);
    await until(async () => (await savedCursors()) >= 1 || child.exitCode !== null, 'a mid-scan checkpoint');
    child.kill('SIGTERM');
    const stopped = await done;
    // 128 + 15: the exit code of a process ended by SIGTERM, as schedulers expect.
    expect(stopped.code).toBe(143);
    expect(finalMessage(stopped.stderr)).toBe(
      'stopped by SIGTERM: every page read before it is saved, and the next run resumes from there',
    );
    const runs = await world.rows(runsTable);
    expect(runs.map((r) => [r.status, r.error])).toEqual([
      ['stopped', 'stopped by SIGTERM: every page read before it is saved, and the next run resumes from there'],
    ]);
    const resumed = await startCli(['sync', '--config', configPath], env).done;
    expect(resumed.code).toBe(0);
    await world.expectTruth();
  });

  it('restarts a scan from the saved frontier when the API refuses the saved cursor', async () => {
    const { child, done } = startCli(['sync', '--config', configPath], env);
    await until(async () => (await savedCursors()) >= 1 || child.exitCode !== null, 'a mid-scan checkpoint');
    child.kill('SIGKILL');
    await done;
    expect(await savedCursors()).toBeGreaterThanOrEqual(1);
    // A cursor from another server (or an expired one) is refused with 400 invalid_cursor.
    await pool.query(
      `UPDATE "${world.schema}"."_aivis_state" SET state = jsonb_set(state, '{cursor}', '"bm90LWEtY3Vyc29y.AAAA"') WHERE state->>'cursor' IS NOT NULL`,
    );
    const lines: string[] = [];
    const summary = await world.sync({ logger: createLogger({ json: true, write: (line) => lines.push(line) }) });
    expect(summary.status).toBe('succeeded');
    const restarts = lines
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'saved cursor refused; restarting the scan from the saved frontier');
    expect(restarts.length).toBeGreaterThanOrEqual(1);
    await world.expectTruth();
  });

  it('refuses a second run while the first holds the lock, naming the holder', async () => {
    world.sandbox.faults.set({ kind: 'slow_body', routes: ['mentions'], chunks: 2, chunkDelayMs: 60_000 });
    const first = startCli(['sync', '--config', configPath], env);
    await until(() => (world.sandbox.stats.byRoute.mentions ?? 0) >= 1, 'the first run to reach the mentions feed');
    const second = await startCli(['sync', '--config', configPath], env).done;
    first.child.kill('SIGKILL');
    await first.done;
    world.sandbox.faults.clear();
    expect(second.code).toBe(1);
    expect(finalMessage(second.stderr)).toMatch(
      /another aivis run holds the lock on schema "[a-z0-9_]+": run run_\w+ on \S+ pid \d+ since \d{4}-/,
    );
    // The killed holder's lock died with its connection: the next run proceeds.
    const after = await startCli(['sync', '--config', configPath], env).done;
    expect(after.code).toBe(0);
  });
});
