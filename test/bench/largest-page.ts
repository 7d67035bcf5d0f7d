/**
 * Figure 4b: peak RSS of the real `aivis sync` process (under the container image's heap flags,
 * `/usr/bin/time -v` as in figure 4) reading the largest page aivis accepts
 * (docs/spec-reading.md#page-bounds): a body just under the 64 MiB cap, either 500 records (the
 * limit) of about 132,000 characters each or 16 records just under the 4 MiB a record may take.
 * Long records are legal, so both pages must load whole, and the process must stay within its
 * heap: before the page bounds, a page a fifth this size aborted V8. Into Postgres and into
 * DuckDB, whose own memory (its buffer pool, bounded by `memory_limit`) is in the same process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_RECORD_BYTES, MAX_RESPONSE_BYTES } from '../../src/client/capped-body.ts';
import { atMost, round, type BenchFigure } from './bench-figure.ts';
import { type MemoryDestination, memoryConfig, peakRssMb, timedSync } from './peak-memory.ts';
import { spawnSandbox } from './sandbox-child.ts';

/** Room in each record for its other fields (about 400 bytes) and in the body for the envelope. */
const RECORD_MARGIN = 2_000;
/**
 * The target: the image's 256 MB heap, plus the body's bytes outside the heap (its chunks and
 * their concatenation while it is read, 2 x 64 MiB at most) and the runtime itself.
 */
const TARGET_MB = 512;

const PAGES = [
  { name: 'limit', records: 500, recordChars: Math.floor(MAX_RESPONSE_BYTES / 500) - RECORD_MARGIN },
  { name: 'longest', records: MAX_RESPONSE_BYTES / MAX_RECORD_BYTES, recordChars: MAX_RECORD_BYTES - RECORD_MARGIN },
] as const;

export type LargestPageName = (typeof PAGES)[number]['name'];

export interface LargestPageRuns {
  /** A fresh Postgres database called `name`. */
  readonly postgres: (name: string) => Promise<string>;
  /** The pages each destination reads (`--quick`: one each). */
  readonly pages: { readonly postgres: readonly LargestPageName[]; readonly duckdb: readonly LargestPageName[] };
}

export async function largestPage(runs: LargestPageRuns, nodeFlags: readonly string[]): Promise<BenchFigure[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-bench-page-'));
  const plan: { destination: MemoryDestination; page: (typeof PAGES)[number] }[] = [
    ...PAGES.filter((page) => runs.pages.postgres.includes(page.name)).map((page) => ({
      destination: 'Postgres' as const,
      page,
    })),
    ...PAGES.filter((page) => runs.pages.duckdb.includes(page.name)).map((page) => ({
      destination: 'DuckDB' as const,
      page,
    })),
  ];
  try {
    const figures: BenchFigure[] = [];
    for (const { destination, page } of plan) {
      const name = `largest_page${destination === 'DuckDB' ? '_duckdb' : ''}_${page.name}`;
      const configFile = path.join(dir, `${name}.yaml`);
      await writeFile(configFile, memoryConfig(destination));
      const target = destination === 'DuckDB' ? path.join(dir, `${name}.duckdb`) : await runs.postgres(name);
      figures.push(await pageFigure(destination, page, configFile, target, nodeFlags));
    }
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One sync of one website whose one page of mentions is `page`, into `target` (a Postgres URL or a DuckDB file). */
async function pageFigure(
  destination: MemoryDestination,
  page: (typeof PAGES)[number],
  configFile: string,
  target: string,
  nodeFlags: readonly string[],
): Promise<BenchFigure> {
  // One measured website with one page of mentions, repeated to `records` and each grown by the sandbox's `huge_records` fault.
  const sandbox = await spawnSandbox({
    seed: 5,
    websites: 1,
    analysesPerWebsite: 1,
    mentionsPerAnalysis: page.records,
    citationsPerAnalysis: 0,
    requestsPerMinute: 0,
  });
  try {
    const fault = { kind: 'huge_records', routes: ['mentions'], records: page.records, recordChars: page.recordChars };
    const set = await fetch(`${sandbox.baseUrl}/_sandbox/faults`, { method: 'PUT', body: JSON.stringify(fault) });
    if (!set.ok) throw new Error(`the sandbox refused the fault: ${await set.text()}`);
    const env = {
      ...process.env,
      AIVIS_BASE_URL: sandbox.baseUrl,
      AIVIS_API_KEY: sandbox.apiKey,
      AIVIS_BENCH_TARGET: target,
      AIVIS_CONFIG: undefined,
    };
    const { stderr, seconds } = await timedSync(configFile, env, nodeFlags);
    const value = round(peakRssMb(stderr), 1);
    const bodyMb = round((page.records * (page.recordChars + 400)) / 1024 / 1024, 1);
    const into = destination === 'DuckDB' ? ', into DuckDB (its default memory_limit and threads)' : '';
    return {
      key: `largest_page.${destination === 'DuckDB' ? 'duckdb.' : ''}${page.name}`,
      figure: `Peak RSS of aivis sync reading the largest page it accepts${into}: ${page.records} records of ${page.recordChars.toLocaleString('en-US')} characters, node ${nodeFlags.join(' ')} (MB)`,
      value,
      ...atMost(TARGET_MB)(value),
      measured: `${value} MB for a body of about ${bodyMb} MB, loaded whole (exit 0) in ${round(seconds, 1)} s`,
      inputs: `one website, one page of mentions (sandbox fault huge_records), streams websites+mentions, ${destination}; body cap ${MAX_RESPONSE_BYTES / 1024 / 1024} MiB, record cap ${MAX_RECORD_BYTES / 1024 / 1024} MiB`,
      detail: {
        peakMb: value,
        destination,
        records: page.records,
        recordChars: page.recordChars,
        seconds: round(seconds, 1),
      },
    };
  } finally {
    await sandbox.close();
  }
}
