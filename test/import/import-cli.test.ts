/**
 * `aivis import-prompts` as a user runs it: the real CLI process against a sandbox on
 * loopback. The process polls on real time (the receipts' Retry-After: 2), so this file keeps
 * to one small partition; the 2,500-line case runs in-process on virtual time
 * (import-happy.test.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptsCsv, startHarness, type Harness } from './import-harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let h: Harness;

function aivis(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', ...args], { cwd: ROOT, env: { ...process.env, AIVIS_LOG_LEVEL: 'warn' } }, (error, stdout, stderr) =>
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.sandbox.close();
});

describe('aivis import-prompts (process)', () => {
  it('imports, then says nothing new on the second run; the API key never appears', async () => {
    const file = await h.file('prompts.csv', promptsCsv(3));
    const args = ['import-prompts', '--config', h.config, '--website', h.websiteId, '--file', file];
    const first = await aivis(args);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^Imported ${file} into ${h.websiteId} \\(classification auto, journal ${file}\\.import-journal\\.json\\)\\n  partition 1: lines 2-4, 3 items, \\d+ bytes, pim_\\w+ succeeded: created 3,`));
    expect(first.stdout).toContain('Total this run: created 3, skipped 0 (request duplicate 0, active duplicate 0, inactive duplicate 0), failed 0, not processed 0');
    const second = await aivis([...args, '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ status: 'succeeded', totals: { created: 0 }, earlier: { partitions: 1, counts: { created: 3 } } });
    expect(first.stdout + first.stderr + second.stdout + second.stderr).not.toContain(h.sandbox.apiKey);
  });

  it('exits 2 on a bad line, naming it, and on a missing flag', async () => {
    const file = await h.file('bad.csv', 'prompt_text\nWhat is the best CRM?\nhey\n');
    const bad = await aivis(['import-prompts', '--config', h.config, '--website', h.websiteId, '--file', file]);
    expect(bad).toEqual({ code: 2, stdout: '', stderr: `aivis: ${file}: 1 problem; nothing was sent:\n  line 3, field prompt_text: must be 5 to 2000 characters after trimming (got 3)\n` });
    const usage = await aivis(['import-prompts', '--config', h.config, '--file', file]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/website/);
    expect(usage.stdout).toBe('');
  });
});
