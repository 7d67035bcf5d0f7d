/**
 * What the live warehouse tests share. `exerciseLiveDestination` runs inside a child process
 * WITHOUT the loopback guard (the one kind of test meant to leave the machine, and only when
 * credentials are given): check, tables, the lock, a flush with an in-batch duplicate and an
 * int64 beyond 2^53, state, then flushes of several workspaces at once (BigQuery fails the
 * losers of concurrent DML and aivis retries them; Snowflake queues them on its table locks),
 * and what the warehouse recorded of the run (BigQuery's job labels, Snowflake's QUERY_TAG);
 * it prints one JSON line of what it saw. `runLiveScript` is the test side: it runs such a
 * script and returns that line. Run against a local stand-in, the same script runs with the
 * loopback guard, so the live scripts are exercised by every `npm test` and cannot rot while
 * nobody holds credentials.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Destination, RunIdentity } from '../../src/destination/destination.ts';
import { LockHeldError } from '../../src/errors.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable, owner, stateEntry } from '../conformance/fixtures.ts';
import { commitFlush, readStateEntries } from '../../src/state/state-rows.ts';
import { childEnv } from './child-env.ts';

/** The row the flush leaves: the second of two rows with id `r1` (last wins). */
export const LIVE_ROW_VALUES = {
  i: 9007199254740993n,
  j: '{"a":[1,2]}',
  t: '2026-01-02T03:04:05.123456Z',
  b: true,
  f: 0.1,
} as const;

/** The workspaces whose flushes land at once, each on a destination (and session) of its own. */
export const CONCURRENT_WORKSPACES = ['live_a', 'live_b', 'live_c'] as const;

/**
 * A run of its own for each live script: its id is what finds the warehouse's records of the
 * run among everything else the account or project ran.
 */
export function liveRun(): RunIdentity {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
  return { runId: `run_${stamp}_${randomBytes(4).toString('hex')}`, workspace: 'default', command: 'sync' };
}

/** The destinations a live script opens, all serving `run` (the concurrent ones as their own workspace). */
export interface LiveDestinations {
  readonly run: RunIdentity;
  /** Takes the lock and writes the rows and state of the default workspace. */
  readonly main: Destination;
  /** The default workspace again, on a session of its own: refused the lock. */
  readonly other: Destination;
  /** One per `CONCURRENT_WORKSPACES` entry, in that order. */
  readonly concurrent: readonly Destination[];
}

/** The destinations for a fresh `liveRun()`, each made by `open` for the run it serves. */
export function liveDestinations(open: (run: RunIdentity) => Destination): LiveDestinations {
  const run = liveRun();
  return {
    run,
    main: open(run),
    other: open(run),
    concurrent: CONCURRENT_WORKSPACES.map((workspace) => open({ ...run, workspace })),
  };
}

export async function closeLiveDestinations({ main, other, concurrent }: LiveDestinations): Promise<void> {
  for (const d of [main, other, ...concurrent]) await d.close();
}

/** How a live script reads the warehouse back, with a connection of its own. */
export interface LiveReads {
  /** Every row of `kindsTable`. */
  readKinds(): Promise<{ id: unknown }[]>;
  /** What the warehouse recorded of the run's statements (printed as `recorded`). */
  recorded(): Promise<unknown>;
  /** More the live test compares, e.g. how the warehouse spells values (printed as `probe`). */
  probe?(): Promise<unknown>;
}

export async function exerciseLiveDestination(
  { run, main, other, concurrent }: LiveDestinations,
  reads: LiveReads,
): Promise<void> {
  await main.open();
  await other.open();
  await main.check({ tables: [...ENGINE_TABLES, kindsTable], views: [] });
  await main.ensureTables([...ENGINE_TABLES, kindsTable]);
  const lock = await main.acquireLock(owner('live-1', process.pid));
  const refused = await other.acquireLock(owner('live-2', process.pid)).then(
    () => 'acquired',
    (error: unknown) => (error instanceof LockHeldError ? 'refused' : String(error)),
  );
  const result = await commitFlush(
    main,
    flushOf(
      kindsTable,
      [kindsRow('r1', { i: 1 }), kindsRow('r1', LIVE_ROW_VALUES)],
      [stateEntry('mentions', 'web_1', 'f1')],
    ),
  );
  const rows = await reads.readKinds();
  const state = await readStateEntries(main);
  await lock.release();

  await Promise.all(concurrent.map((d) => d.open()));
  await Promise.all(
    concurrent.map((d, k) =>
      commitFlush(
        d,
        flushOf(kindsTable, [kindsRow(`c${k}`, { i: k })], [stateEntry('mentions', `web_c${k}`, `f${k}`)]),
        CONCURRENT_WORKSPACES[k],
      ),
    ),
  );
  const together = {
    ids: (await reads.readKinds()).map((row) => String(row.id)).sort(),
    state: await Promise.all(
      concurrent.map(async (d, k) => (await readStateEntries(d, CONCURRENT_WORKSPACES[k])).map((e) => e.scope)),
    ),
  };
  const recorded = await reads.recorded();
  process.stdout.write(
    `${JSON.stringify({ runId: run.runId, refused, result, rows, state, together, recorded, ...(reads.probe ? { probe: await reads.probe() } : {}) })}\n`,
  );
}

/**
 * Runs a live script with node; fails on a non-zero exit or any stderr, returns its JSON line.
 * `standIn`: the script's environment points it at a local stand-in, and the loopback guard
 * holds it there.
 */
export async function runLiveScript(
  script: string,
  standIn?: { readonly env: Readonly<Record<string, string>> },
): Promise<Record<string, unknown>> {
  const args = standIn ? ['--import', './test/setup/loopback-guard.ts', script] : [script];
  const child = spawn(process.execPath, args, {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Against a stand-in, nothing from the developer's shell (a proxy, an AIVIS_* setting) joins in;
    // a live run keeps the shell's environment, proxy included, to reach the real service.
    env: standIn ? childEnv(standIn.env) : process.env,
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0 || err !== '') throw new Error(`${script} exited ${code}: ${err}`);
  return JSON.parse(out) as Record<string, unknown>;
}
