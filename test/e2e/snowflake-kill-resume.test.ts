/**
 * `aivis sync` into Snowflake, killed with SIGKILL inside a flush's transaction, then resumed:
 * the killed run's lease keeps the next run out (naming it) until it expires; the run that
 * takes over aborts the transaction the killed one left open and finishes equal to the
 * sandbox's truth. The CLI runs as a real child process; the sandbox and the stand-in here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { SNOWFLAKE_LEASE_MS } from '../../connectors/snowflake/snowflake-config.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { stateTable } from '../../src/tables/index.ts';
import { runCli } from '../support/cli-process.ts';
import { finalMessage } from '../support/json-lines.ts';
import { configYaml, LOADER } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { useSnowflakeStandIn } from '../stand-ins/snowflake/stand-in-hooks.ts';
import { openWorld, SANDBOX, type SyncTarget } from './sync-suite.ts';

// The killed client's session is never ended, as with a real killed process.
const sf = useSnowflakeStandIn({ expectAllSessionsClosed: false });
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-sf-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The in-process runs' lease clock: moved forward instead of waiting for a lease to expire. */
let clockOffsetMs = 0;
const target: SyncTarget = {
  name: 'snowflake',
  create: async (schema) =>
    createSnowflakeDestination(sf.setup().config(schema), {
      logger: silentLogger,
      now: () => new Date(Date.now() + clockOffsetMs),
    }),
  readRows: (_destination, schema, table) => sf.reader().rows(schema, table),
};

/** Enough mentions (4 measured websites x 6,000) for several 20,000-row flushes. */
const BIG = { ...SANDBOX, mentionsPerAnalysis: 1500, citationsPerAnalysis: 300 };

describe('killed and resumed sync into Snowflake (real CLI process)', () => {
  let world: Awaited<ReturnType<typeof openWorld>>;
  let configPath: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(async () => {
    clockOffsetMs = 0;
    world = await openWorld(target, BIG);
    configPath = path.join(dir, `${world.schema}.yaml`);
    writeFileSync(configPath, configYaml(world.sandbox.baseUrl, sf.setup().config(world.schema)));
    env = { AIVIS_E2E_API_KEY: world.sandbox.apiKey, AIVIS_E2E_SNOWFLAKE_PASSWORD: LOADER.password };
  });
  afterEach(async () => {
    sf.setup().standIn.onStatement(undefined);
    await world.close();
  });

  it('equals the truth after a SIGKILL inside a flush, once the killed run’s lease expires', async () => {
    const { standIn } = sf.setup();
    const killed = runCli(['sync', '--config', configPath], env);
    let mentionMerges = 0;
    // Killed as its second mentions MERGE reaches Snowflake: that MERGE runs, its COMMIT never comes.
    standIn.onStatement((sql) => {
      if (/^MERGE INTO \S+\.mentions AS T/.test(sql) && ++mentionMerges === 2) killed.child.kill('SIGKILL');
    });
    const first = await killed.done;
    standIn.onStatement(undefined);
    expect(first.signal ?? `exited ${first.code}: ${first.stderr}`).toBe('SIGKILL');
    expect(standIn.openTransactions()).toBe(1);
    const saved = await world.rows(stateTable);
    expect(saved.some((row) => (row.state as { cursor: string | null }).cursor !== null)).toBe(true);

    // At once, the lease still stands: refused, naming the killed run.
    const refused = await runCli(['sync', '--config', configPath], env).done;
    expect(refused.code).toBe(1);
    expect(finalMessage(refused.stderr)).toContain(
      `another aivis run holds the lock on schema "${world.schema}": run run_`,
    );
    expect(finalMessage(refused.stderr)).toContain(` pid ${killed.child.pid} since `);

    // After the lease: the next run takes over, ends the detached transaction, and finishes.
    clockOffsetMs = SNOWFLAKE_LEASE_MS + 1000;
    const resumed = await world.sync();
    expect(resumed.status).toBe('succeeded');
    expect(standIn.openTransactions()).toBe(0);
    await world.expectTruth();
    for (const row of await world.rows(stateTable)) expect((row.state as { cursor: string | null }).cursor).toBeNull();
    for (const output of [first.stderr, refused.stderr, refused.stdout]) expect(output).not.toContain(LOADER.password);
  }, 180_000); // three runs over 30,000 rows, two of them child processes, on a shared machine
});
