/**
 * SIGTERM during a sync whose served contract holds a backtracking pattern (`^(a+)+$`) that a
 * record drives through 2^5,000 steps in a backtracking engine: the real `aivis sync` process
 * under the image's settings, into a DuckDB file. The record is rejected at once, so the run
 * reaches its next request (held by the sandbox for an hour) and the stop is honoured there:
 * exit 143, the run recorded `stopped` (docs/served-contract.md#validation). A pattern that
 * stalled validation would never log the rejection, and would hold the signal too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../support/cli-process.ts';
import { queryDuckDbFile } from '../support/duckdb-file.ts';
import { backtrackingSandbox, IMAGE_ENV } from '../support/hostile-contracts.ts';
import { finalMessage } from '../support/json-lines.ts';
import { writeSandboxConfig } from '../support/sandbox-config.ts';
import { until } from '../support/until.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-backtracking-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AN_HOUR = 3_600_000;
const STOPPED = 'stopped by SIGTERM: every page read before it is saved, and the next run resumes from there';

it('a record rejected at once under a served ^(a+)+$, then SIGTERM honoured at the next request: exit 143, run stopped', async () => {
  const sandbox = await backtrackingSandbox({ firstWebsiteOnly: true });
  try {
    const [, second] = sandbox.truth.websites().map((w) => w.id as string);
    sandbox.faults.set({
      kind: 'slow_body',
      routes: ['mentions'],
      websites: [second!],
      chunks: 2,
      chunkDelayMs: AN_HOUR,
    });
    const database = path.join(dir, 'stop.duckdb');
    const config = writeSandboxConfig(path.join(dir, 'aivis.yaml'), sandbox.baseUrl, [
      '  type: duckdb',
      `  path: ${database}`,
      'streams:',
      '  mentions: {}',
    ]);
    const { child, done } = runCli(['sync', '--config', config], { ...IMAGE_ENV, AIVIS_API_KEY: sandbox.apiKey });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    await until(() => stderr.includes('"msg":"records rejected"') || child.exitCode !== null, 'the rejection');
    await until(
      () => (sandbox.stats.byRoute.mentions ?? 0) >= 2 || child.exitCode !== null,
      "the second website's request",
    );
    child.kill('SIGTERM');
    const stopped = await done;
    expect(stopped.code).toBe(143);
    expect(finalMessage(stopped.stderr)).toBe(STOPPED);
    const runs = await queryDuckDbFile(database, 'SELECT status, error FROM aivis._aivis_runs');
    expect(runs).toEqual([{ status: 'stopped', error: STOPPED }]);
    const [rejected] = await queryDuckDbFile(
      database,
      "SELECT count(*)::INT AS n FROM aivis._aivis_rejected WHERE error LIKE '%sentence_text_truncated%'",
    );
    expect(rejected).toEqual({ n: 1 });
  } finally {
    await sandbox.close();
  }
});
