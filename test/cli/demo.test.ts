/**
 * `npm run demo` as a newcomer runs it, in a fresh folder: it syncs the in-process sandbox into
 * DuckDB and prints the results with the data clock they are as of, so `aivis status` calling
 * the demo's data stale does not surprise.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-demo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('prints the data clock where it prints the results', () => {
  const demo = path.resolve('scripts/demo.ts');
  const stdout = execFileSync(process.execPath, [demo], {
    cwd: dir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const results = stdout.indexOf('latest visibility per website');
  const clock = stdout.indexOf(
    "the sandbox's data clock is pinned at 2026-01-01T00:00:00Z (the same rows every run): the data is as of then, so aivis status on this file, which measures age by this machine's clock, calls it stale\n",
  );
  expect(results).toBeGreaterThan(0);
  expect(clock).toBeGreaterThan(results);
});
