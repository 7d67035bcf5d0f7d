/**
 * The installed launcher's heap (bin/heap-limits.cjs): `aivis` and `tap-aivis` run the command
 * under the image's limits unless the user set their own, and stdout stays the command's alone.
 * The processes are real: the built bin/aivis.cjs (dist/), with a preload that reports each
 * node's pid, parent pid and V8 heap limit on stderr.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv } from '../support/child-env.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const { missingHeapFlags } = createRequire(import.meta.url)('../../bin/heap-limits.cjs') as {
  missingHeapFlags(nodeOptions: string | undefined, execArgv: readonly string[]): string[];
};

const dir = mkdtempSync(path.join(tmpdir(), 'aivis-heap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const REPORT = '#heap ';
const preload = path.join(dir, 'report-heap.cjs');
writeFileSync(
  preload,
  `const v8 = require('node:v8');
process.stderr.write(${JSON.stringify(REPORT)} + JSON.stringify({ pid: process.pid, ppid: process.ppid, limitMb: v8.getHeapStatistics().heap_size_limit / 2 ** 20 }) + '\\n');\n`,
);

interface NodeReport {
  pid: number;
  ppid: number;
  limitMb: number;
}

/** `node bin/<bin> <args>` with `NODE_OPTIONS` (plus the preload); what it printed and each node's report. */
async function launch(bin: string, args: string[], nodeOptions = '') {
  const { stdout, stderr, code } = await run(process.execPath, [path.join(ROOT, 'bin', bin), ...args], {
    cwd: ROOT,
    env: childEnv({ NODE_OPTIONS: `${nodeOptions} --require ${preload}`.trim() }),
  }).then(
    (ended) => ({ ...ended, code: 0 }),
    (failed: { stdout: string; stderr: string; code: number }) => failed,
  );
  const reports = stderr
    .split('\n')
    .filter((line) => line.startsWith(REPORT))
    .map((line) => JSON.parse(line.slice(REPORT.length)) as NodeReport);
  return { stdout, stderr, code, reports };
}

/** The node that ran the command: the launcher's child when there are two, else the only one. */
function commandNode(reports: NodeReport[]): NodeReport {
  if (reports.length === 1) return reports[0]!;
  expect(reports).toHaveLength(2);
  const [a, b] = reports as [NodeReport, NodeReport];
  const child = a.ppid === b.pid ? a : b;
  expect(child.ppid).toBe((child === a ? b : a).pid);
  return child;
}

describe('missingHeapFlags', () => {
  it('adds both limits when none is set, and only those the user did not set', () => {
    expect(missingHeapFlags(undefined, [])).toEqual(['--max-semi-space-size=1', '--max-old-space-size=256']);
    expect(missingHeapFlags('--enable-source-maps', ['--import', 'x.ts'])).toEqual([
      '--max-semi-space-size=1',
      '--max-old-space-size=256',
    ]);
    expect(missingHeapFlags('--max-old-space-size=1024', [])).toEqual(['--max-semi-space-size=1']);
    expect(missingHeapFlags('  --max_semi_space_size=4  --max-old-space-size=64 ', [])).toEqual([]);
    expect(missingHeapFlags('', ['--max-semi-space-size=1', '--max-old-space-size=256'])).toEqual([]);
  });
});

describe('bin/aivis.cjs (built dist/)', () => {
  it('runs the command under the image heap (256 MB old space) when nothing sets one', async () => {
    const { stdout, code, reports } = await launch('aivis.cjs', ['--version']);
    expect(code).toBe(0);
    expect(reports).toHaveLength(2);
    const node = commandNode(reports);
    // 256 MB old space + a young generation of 3 x 1 MB semi-spaces.
    expect(node.limitMb).toBeGreaterThanOrEqual(256);
    expect(node.limitMb).toBeLessThan(270);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("leaves the user's NODE_OPTIONS limits alone: one process, their heap", async () => {
    const { reports } = await launch('aivis.cjs', ['--version'], '--max-semi-space-size=2 --max-old-space-size=512');
    expect(reports).toHaveLength(1);
    expect(reports[0]!.limitMb).toBeGreaterThanOrEqual(512);
    expect(reports[0]!.limitMb).toBeLessThan(530);
  });

  it('adds only the limit the user left out', async () => {
    const { reports } = await launch('aivis.cjs', ['--version'], '--max-old-space-size=1024');
    const node = commandNode(reports);
    expect(reports).toHaveLength(2);
    expect(node.limitMb).toBeGreaterThanOrEqual(1024);
    expect(node.limitMb).toBeLessThan(1040);
  });

  it('keeps `aivis airbyte spec` stdout exactly the protocol lines the CLI prints', async () => {
    const { stdout } = await launch('aivis.cjs', ['airbyte', 'spec']);
    const direct = await run(process.execPath, [path.join(ROOT, 'dist/src/cli/main.js'), 'airbyte', 'spec'], {
      cwd: ROOT,
      env: childEnv({ NODE_OPTIONS: '--max-semi-space-size=1 --max-old-space-size=256' }),
    });
    expect(stdout).toBe(direct.stdout);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['SPEC']);
  });
});

describe('bin/tap-aivis.cjs (built dist/)', () => {
  it('runs the tap under the image heap too, and passes its exit code back', async () => {
    const { reports, code, stdout, stderr } = await launch('tap-aivis.cjs', ['--nonsense']);
    expect(commandNode(reports).limitMb).toBeLessThan(270);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("tap-aivis: Unknown option '--nonsense'");
  });
});
