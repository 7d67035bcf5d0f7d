/**
 * `aivis import-prompts` as a user runs it: the real CLI process against a sandbox on
 * loopback, including a real SIGKILL while a receipt is being polled. The process polls on
 * real time (the receipts' Retry-After: 2), so this file keeps to one small partition per
 * run; the 2,500-line case runs in-process on virtual time (import-happy.test.ts).
 */
import { execFile, spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureLine, jsonLines } from '../support/json-lines.ts';
import { promptsCsv, startHarness, type Harness } from './import-harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let h: Harness;

function aivis(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', ...args],
      { cwd: ROOT, env: { ...process.env, AIVIS_LOG_LEVEL: 'warn' } },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.sandbox.close();
});

/** Resolves once the journal file holds `text`; driven by file events, not by sleeping. */
function journalShows(file: string, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = async () => {
      const content = await readFile(file, 'utf8').catch(() => '');
      if (!content.includes(text)) return;
      watcher.close();
      resolve();
    };
    const watcher = watch(path.dirname(file), () => void check());
    void check();
  });
}

describe('aivis import-prompts (process)', () => {
  it('killed (SIGKILL) between the 202 and the terminal receipt, resumes by polling the same receipt', async () => {
    const file = await h.file('killed.csv', promptsCsv(3, 500));
    const journal = `${file}.${h.websiteId}.import-journal.json`;
    const child = spawn(
      process.execPath,
      [
        '--import',
        './test/setup/loopback-guard.ts',
        'src/cli/main.ts',
        'import-prompts',
        '--config',
        h.config,
        '--website',
        h.websiteId,
        '--file',
        file,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, AIVIS_LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    await journalShows(journal, '"status": "accepted"');
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const recorded = JSON.parse(await readFile(journal, 'utf8')).partitions['0'].attempts;
    expect(recorded.map((a: any) => a.status)).toEqual(['accepted']);
    const posts = h.sandbox.stats.byRoute['prompts.import'];

    const resumed = await aivis([
      'import-prompts',
      '--config',
      h.config,
      '--website',
      h.websiteId,
      '--file',
      file,
      '--json',
    ]);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout).partitions).toMatchObject([
      { import_id: recorded[0].import_id, origin: 'this_run', counts: { created: 3 } },
    ]);
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(posts);
  });

  it('imports, then says nothing new on the second run; the API key never appears', async () => {
    const file = await h.file('prompts.csv', promptsCsv(3));
    const args = ['import-prompts', '--config', h.config, '--website', h.websiteId, '--file', file];
    const first = await aivis(args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(
        `^Imported ${file} into ${h.websiteId} \\(classification auto, journal ${file}\\.${h.websiteId}\\.import-journal\\.json\\)\\n  partition 1: lines 2-4, 3 items, \\d+ bytes, pim_\\w+ succeeded: created 3,`,
      ),
    );
    expect(first.stdout).toContain(
      'Total this run: created 3, skipped 0 (request duplicate 0, active duplicate 0, inactive duplicate 0), failed 0, not processed 0',
    );
    const second = await aivis([...args, '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      status: 'succeeded',
      totals: { created: 0 },
      earlier: { partitions: 1, counts: { created: 3 } },
    });
    expect(first.stdout + first.stderr + second.stdout + second.stderr).not.toContain(h.sandbox.apiKey);
  });

  it('exits 2 on a bad line, naming it, and on a missing flag', async () => {
    const file = await h.file('bad.csv', 'prompt_text\nWhat is the best CRM?\nhey\n');
    const bad = await aivis(['import-prompts', '--config', h.config, '--website', h.websiteId, '--file', file]);
    expect({ ...bad, stderr: jsonLines(bad.stderr) }).toEqual({
      code: 2,
      stdout: '',
      stderr: [
        failureLine(
          `${file}: 1 problem; nothing was sent:\n  line 3, field prompt_text: must be 5 to 2000 characters after trimming (got 3)`,
          2,
        ),
      ],
    });
    const usage = await aivis(['import-prompts', '--config', h.config, '--file', file]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/website/);
    expect(usage.stdout).toBe('');
  });
});
