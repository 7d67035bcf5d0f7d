/**
 * Figure 4: peak RSS of the real `aivis sync` process (spawned as a user runs it, the installed
 * bin/aivis.cjs, under `/usr/bin/time -v`, whose "Maximum resident set size" is the kernel's
 * high-water mark: of the launcher or of the node it runs the command in, whichever is larger)
 * syncing N mention rows from a sandbox in a third process into Postgres. Flat means the
 * peak does not grow with N; the target is under 256 MB at 1M rows.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { atMost, round, type BenchFigure } from './bench-figure.ts';
import { spawnSandbox } from './sandbox-child.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEBSITES = 10; // every fifth is unmeasured: 8 carry mentions
const ANALYSES = 5;
const MAX_RSS = /Maximum resident set size \(kbytes\): (\d+)/;

/** Where a memory figure's sync loads: `${AIVIS_BENCH_TARGET}` is the run's Postgres URL or DuckDB file. */
const DESTINATION_BLOCKS = {
  Postgres: ['type: postgres', 'url: ${AIVIS_BENCH_TARGET}'],
  DuckDB: ['type: duckdb', 'path: ${AIVIS_BENCH_TARGET}'],
} as const;

export type MemoryDestination = keyof typeof DESTINATION_BLOCKS;

/** The config of a memory figure's sync, its destination's defaults unchanged. */
export function memoryConfig(destination: MemoryDestination): string {
  return [
    'source:',
    '  base_url: ${AIVIS_BASE_URL}',
    '  api_key: ${AIVIS_API_KEY}',
    '  requests_per_minute: 6000',
    'destination:',
    ...DESTINATION_BLOCKS[destination].map((line) => `  ${line}`),
    '  schema: aivis',
    'streams:',
    '  websites: {}',
    '  mentions: {}',
    '',
  ].join('\n');
}

interface SyncProcess {
  readonly peakMb: number;
  readonly seconds: number;
  readonly rows: number;
}

/**
 * Runs `aivis sync` once under `/usr/bin/time -v`, through the installed launcher (its heap
 * limits unless `nodeFlags` set them); rejects with its stderr unless it exits 0.
 */
export function timedSync(
  configFile: string,
  env: NodeJS.ProcessEnv,
  nodeFlags: readonly string[],
): Promise<{ stderr: string; seconds: number }> {
  const args = [
    '-v',
    process.execPath,
    ...nodeFlags,
    '--import',
    './test/setup/loopback-guard.ts',
    'bin/aivis.cjs',
    'sync',
    '--config',
    configFile,
  ];
  const start = performance.now();
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/time', args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`aivis sync failed (${error.message}):\n${stderr.slice(-2000)}`));
      else resolve({ stderr, seconds: (performance.now() - start) / 1000 });
    });
  });
}

/** The peak RSS `/usr/bin/time -v` reported, in MB. */
export function peakRssMb(timeOutput: string): number {
  const kb = MAX_RSS.exec(timeOutput)?.[1];
  if (kb === undefined)
    throw new Error(`no "Maximum resident set size" in the output of /usr/bin/time:\n${timeOutput.slice(-1000)}`);
  return Number(kb) / 1024;
}

async function syncPeak(
  mentions: number,
  databaseUrl: string,
  dir: string,
  nodeFlags: readonly string[],
): Promise<SyncProcess> {
  const perAnalysis = Math.ceil(mentions / ((WEBSITES * 4) / 5) / ANALYSES);
  const sandbox = await spawnSandbox({
    seed: 3,
    websites: WEBSITES,
    analysesPerWebsite: ANALYSES,
    mentionsPerAnalysis: perAnalysis,
    citationsPerAnalysis: 0,
    requestsPerMinute: 0,
  });
  const configFile = path.join(dir, `aivis-${mentions}.yaml`);
  await writeFile(configFile, memoryConfig('Postgres'));
  try {
    const env = {
      ...process.env,
      AIVIS_BASE_URL: sandbox.baseUrl,
      AIVIS_API_KEY: sandbox.apiKey,
      AIVIS_BENCH_TARGET: databaseUrl,
      AIVIS_CONFIG: undefined,
    };
    const { stderr, seconds } = await timedSync(configFile, env, nodeFlags);
    return { peakMb: peakRssMb(stderr), seconds, rows: perAnalysis * ANALYSES * ((WEBSITES * 4) / 5) };
  } finally {
    await sandbox.close();
  }
}

/**
 * One sync per size, each into a fresh database (`database(n)`), the node process started
 * with `nodeFlags` (e.g. V8 heap caps).
 */
export async function peakMemory(
  sizes: readonly number[],
  database: (n: number) => Promise<string>,
  nodeFlags: readonly string[] = [],
): Promise<BenchFigure[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-bench-memory-'));
  try {
    const runs: SyncProcess[] = [];
    for (const size of sizes) runs.push(await syncPeak(size, await database(size), dir, nodeFlags));
    const smallest = runs[0]!;
    return runs.map((run) => {
      const value = round(run.peakMb, 1);
      const growth = round(run.peakMb / smallest.peakMb, 2);
      return {
        key: `peak_memory${nodeFlags.length > 0 ? '_flagged' : ''}.${run.rows}`,
        figure: `Peak RSS of aivis sync, ${run.rows.toLocaleString('en-US')} mentions${nodeFlags.length > 0 ? `, node ${nodeFlags.join(' ')}` : ''} (MB)`,
        value,
        ...atMost(256)(value),
        measured: `${value} MB${run === smallest ? '' : `, ${growth}x the ${smallest.rows.toLocaleString('en-US')}-row run`}; ${Math.round(run.rows / run.seconds)} rows/s in ${round(run.seconds, 1)} s`,
        inputs: `W=${WEBSITES} (8 measured), H=${ANALYSES}, M=${run.rows / 40}, streams websites+mentions, 6000 req/min, Postgres, flush 5000 rows`,
        detail: { peakMb: value, growthVsSmallest: growth, rows: run.rows, seconds: round(run.seconds, 1) },
      };
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
