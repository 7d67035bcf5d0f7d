/**
 * SIGTERM while the API is slow: the real `aivis sync` process, real Postgres, the sandbox
 * sending one response body in pieces an hour apart. The stop must reach the request in
 * flight: the process commits the page it already read (with its state), records `stopped`,
 * releases the lock and exits 1, long before that body could arrive (this test's timeout is two
 * minutes; no clock is read). `aivis status` then exits 4 (a website in scope never completed)
 * until the next run completes the truth.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { mentionsTable, runsTable, stateTable, websitesTable } from '../../src/tables/index.ts';
import { runCli } from '../support/cli-process.ts';
import { finalMessage } from '../support/json-lines.ts';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { until } from '../support/until.ts';
import { comparable, expectedTables } from './expected-rows.ts';
import { openWorld, SANDBOX } from './sync-suite.ts';

const url = inject('postgresUrl');
const target = postgresTarget(url);
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-sigterm-'));
afterAll(async () => {
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

const AN_HOUR = 3_600_000;
const stopMessage = (signal: string) =>
  `stopped by ${signal}: every page read before it is saved, and the next run resumes from there`;

// 128 + the signal's number, as a shell reports a process the signal ended (Kubernetes, Airflow, Ctrl-C).
// Also through the installed launcher (bin/aivis.cjs, built dist/), which runs the CLI in a child
// node under the heap limits and must hand the signal on once and pass the exit code back.
describe.each([
  ['SIGTERM', 143, 'src/cli/main.ts'],
  ['SIGINT', 130, 'src/cli/main.ts'],
  ['SIGTERM', 143, 'bin/aivis.cjs'],
  ['SIGINT', 130, 'bin/aivis.cjs'],
] as const)(
  '%s during a slow API response (exit %i, real CLI process %s, real Postgres)',
  (signal, exitCode, entry) => {
    let world: Awaited<ReturnType<typeof openWorld>>;
    let configPath: string;
    let env: NodeJS.ProcessEnv;

    beforeEach(async () => {
      // Two websites, each one page of mentions: a scan is either whole or not started.
      world = await openWorld(target, { ...SANDBOX, websites: 2, mentionsPerAnalysis: 40 });
      configPath = path.join(dir, `${world.schema}.yaml`);
      const lines = [
        'source:',
        `  base_url: ${world.sandbox.baseUrl}`,
        '  api_key: ${AIVIS_E2E_API_KEY}',
        '  requests_per_minute: 6000',
      ];
      lines.push(
        'destination:',
        '  type: postgres',
        '  url: ${AIVIS_E2E_DATABASE_URL}',
        `  schema: ${world.schema}`,
        'streams:',
        // `websites` left out: a sync keeps the listing whatever streams it selects, since the
        // listing is what status counts the websites in scope over (docs/operations.md#coverage).
        '  mentions: {}',
        '',
      );
      writeFileSync(configPath, lines.join('\n'));
      // Debug lines say when a response was read whole.
      env = { AIVIS_E2E_API_KEY: world.sandbox.apiKey, AIVIS_E2E_DATABASE_URL: url, AIVIS_LOG_LEVEL: 'debug' };
    });
    afterEach(async () => {
      await world.close();
    });

    it(`ends the request in flight, commits the page already read with its state, records stopped, exits ${exitCode}`, async () => {
      const [fast, slow] = (world.sandbox.truth.websites() as { id: string }[]).map((w) => w.id);
      world.sandbox.faults.set({
        kind: 'slow_body',
        routes: ['mentions'],
        websites: [slow!],
        chunks: 2,
        chunkDelayMs: AN_HOUR,
      });
      const { child, done } = runCli(['sync', '--config', configPath], env, { entry });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      const fastPageRead = `"msg":"api response","method":"GET","path":"/public/v2/websites/${fast}/mentions","status":200`;
      await until(() => stderr.includes(fastPageRead) || child.exitCode !== null, "the fast website's page");
      await until(
        () => (world.sandbox.stats.byRoute.mentions ?? 0) >= 2 || child.exitCode !== null,
        "the slow website's request",
      );
      // The fast page waits in the flush buffer (Postgres commits every 5,000 rows or 5 s of adds).
      expect(await world.rows(mentionsTable)).toEqual([]);

      child.kill(signal);
      const stopped = await done;
      expect(stopped.code).toBe(exitCode);
      expect(finalMessage(stopped.stderr)).toBe(stopMessage(signal));
      expect(stopped.stderr).not.toContain(world.sandbox.apiKey);
      const runs = await world.rows(runsTable);
      expect(runs.map((r) => [r.status, r.error])).toEqual([['stopped', stopMessage(signal)]]);
      expect((await world.rows(websitesTable)).map((r) => r.id).sort()).toEqual([fast, slow].sort());

      // What is committed is what the state describes: the fast scan whole, the slow one not begun.
      const state = await world.rows(stateTable);
      expect(state.map((r) => [r.stream, r.scope, (r.state as { cursor: unknown }).cursor])).toEqual([
        ['mentions', fast, null],
      ]);
      const truth = (expectedTables(world.sandbox).get(mentionsTable.name) ?? []).filter((r) => r.website_id === fast);
      expect(truth.length).toBeGreaterThan(0);
      expect(comparable(mentionsTable, await world.rows(mentionsTable))).toEqual(comparable(mentionsTable, truth));

      // Nothing vouches for the website the stop left unread: status is stale (exit 4) and says so.
      const status = () => runCli(['status', '--config', configPath], env).done;
      const afterStop = await status();
      expect(afterStop.code).toBe(4);
      expect(afterStop.stdout + afterStop.stderr).toContain('mentions: 1 of 2 websites in scope never completed');

      // The lock was released: the next run reads the slow website and ends equal to the truth.
      world.sandbox.faults.clear();
      const resumed = await runCli(['sync', '--config', configPath], env).done;
      expect(resumed.code).toBe(0);
      const all = expectedTables(world.sandbox).get(mentionsTable.name) ?? [];
      expect(comparable(mentionsTable, await world.rows(mentionsTable))).toEqual(comparable(mentionsTable, all));
      // Until that run completed it: now every website in scope is vouched for.
      expect((await status()).code).toBe(0);
    }, 120_000);
  },
);
