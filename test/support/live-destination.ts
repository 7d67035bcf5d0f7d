/**
 * What the live warehouse tests share. `exerciseLiveDestination` runs inside a child process
 * WITHOUT the loopback guard (the one kind of test meant to leave the machine, and only when
 * credentials are given): check, tables, the lock, a flush with an in-batch duplicate and an
 * int64 beyond 2^53, state; it prints one JSON line of what it saw. `runLiveScript` is the
 * test side: it runs such a script and returns that line.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Destination } from '../../src/destination/destination.ts';
import { LockHeldError } from '../../src/errors.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable, owner, stateEntry } from '../conformance/fixtures.ts';
import { commitFlush, readStateEntries } from '../../src/state/state-rows.ts';

/** The row the flush leaves: the second of two rows with id `r1` (last wins). */
export const LIVE_ROW_VALUES = {
  i: 9007199254740993n,
  j: '{"a":[1,2]}',
  t: '2026-01-02T03:04:05.123456Z',
  b: true,
  f: 0.1,
} as const;

export async function exerciseLiveDestination(
  destination: Destination,
  other: Destination,
  readKinds: () => Promise<unknown[]>,
  /** More the live test compares, e.g. how the warehouse spells values (printed as `probe`). */
  probe?: () => Promise<unknown>,
): Promise<void> {
  await destination.open();
  await other.open();
  await destination.check();
  await destination.ensureTables([...ENGINE_TABLES, kindsTable]);
  const lock = await destination.acquireLock(owner('live-1', process.pid));
  const refused = await other.acquireLock(owner('live-2', process.pid)).then(
    () => 'acquired',
    (error: unknown) => (error instanceof LockHeldError ? 'refused' : String(error)),
  );
  const result = await commitFlush(
    destination,
    flushOf(
      kindsTable,
      [kindsRow('r1', { i: 1 }), kindsRow('r1', LIVE_ROW_VALUES)],
      [stateEntry('mentions', 'web_1', 'f1')],
    ),
  );
  const rows = await readKinds();
  const state = await readStateEntries(destination);
  await lock.release();
  process.stdout.write(
    `${JSON.stringify({ refused, result, rows, state, ...(probe ? { probe: await probe() } : {}) })}\n`,
  );
}

/** Runs a live script with node; fails on a non-zero exit or any stderr, returns its JSON line. */
export async function runLiveScript(script: string): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0 || err !== '') throw new Error(`${script} exited ${code}: ${err}`);
  return JSON.parse(out) as Record<string, unknown>;
}
