/**
 * Figure 11: records/s of `aivis airbyte read` with stdout to /dev/null against rows/s of
 * `aivis sync` into DuckDB, the same sandbox data (all streams, a full read) read by both, each
 * the compiled CLI in a process of its own, the sandbox in a third, its rate limit off. The
 * ratio says whether writing protocol messages costs more than loading a warehouse; the
 * records/s must clear the API's ceiling (750 rows/s: 90 requests a minute of 500 rows) with a
 * wide margin, so the protocol output is never what holds a read back.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROTOCOL_STREAMS } from '../../src/protocols/protocol-streams.ts';
import type { SandboxOptions } from '../../src/sandbox/index.ts';
import { queryDuckDbFile } from '../support/duckdb-file.ts';
import { round, worldInputs, type BenchFigure } from './bench-figure.ts';
import { spawnSandbox } from './sandbox-child.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The API's ceiling at aivis's default budget: 90 requests a minute of 500 rows each. */
const API_CEILING_ROWS_PER_SECOND = 750;
/** "With wide margin": five times the ceiling (a small world spends a second of its few on process start). */
const MARGIN = 5;

/** Runs the compiled CLI with `args`, its stdout to `stdout`; resolves its wall seconds, rejects unless it exits 0. */
function timedCli(args: readonly string[], stdout: 'ignore' | number): Promise<number> {
  const start = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', './test/setup/loopback-guard.ts', 'dist/src/cli/main.js', ...args],
    {
      cwd: ROOT,
      stdio: ['ignore', stdout, 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve, reject) =>
    child.on('close', (code) =>
      code === 0
        ? resolve((performance.now() - start) / 1000)
        : reject(new Error(`aivis ${args.join(' ')} exited ${code}:\n${stderr.slice(-2000)}`)),
    ),
  );
}

/** Rows the sync loaded into the stream tables: the records a read of the same data emits. */
async function tableRows(database: string): Promise<number> {
  const counts = await queryDuckDbFile(
    database,
    PROTOCOL_STREAMS.map((s) => `SELECT count(*) AS n FROM aivis.${s.name}`).join(' UNION ALL '),
  );
  return counts.reduce((sum, row) => sum + Number(row.n), 0);
}

export async function protocolThroughput(world: SandboxOptions): Promise<BenchFigure> {
  const sandbox = await spawnSandbox({ ...world, requestsPerMinute: 0 });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-bench-protocol-'));
  try {
    const database = path.join(dir, 'bench.duckdb');
    const yaml = path.join(dir, 'aivis.yaml');
    const source = [`  base_url: ${sandbox.baseUrl}`, '  api_key: ${AIVIS_BENCH_KEY}', '  requests_per_minute: 6000'];
    await writeFile(
      yaml,
      ['source:', ...source, 'destination:', '  type: duckdb', `  path: ${database}`, ''].join('\n'),
    );
    const config = path.join(dir, 'config.json');
    await writeFile(
      config,
      JSON.stringify({ base_url: sandbox.baseUrl, api_key: sandbox.apiKey, requests_per_minute: 6000 }),
    );
    const catalog = path.join(dir, 'catalog.json');
    const streams = PROTOCOL_STREAMS.map((s) => ({
      stream: { name: s.name, json_schema: {}, supported_sync_modes: ['full_refresh'] },
      sync_mode: 'full_refresh',
      destination_sync_mode: 'append',
    }));
    await writeFile(catalog, JSON.stringify({ streams }));

    process.env.AIVIS_BENCH_KEY = sandbox.apiKey;
    const syncSeconds = await timedCli(['sync', '--config', yaml], 'ignore');
    const rows = await tableRows(database);
    const devNull = openSync('/dev/null', 'w');
    let readSeconds: number;
    try {
      readSeconds = await timedCli(['airbyte', 'read', '--config', config, '--catalog', catalog], devNull);
    } finally {
      closeSync(devNull);
    }
    const readRate = Math.round(rows / readSeconds);
    const syncRate = Math.round(rows / syncSeconds);
    return {
      key: 'protocol_throughput',
      figure: 'aivis airbyte read to /dev/null against aivis sync into DuckDB (records/s ratio)',
      value: round(readRate / syncRate, 2),
      target: `read >= ${MARGIN * API_CEILING_ROWS_PER_SECOND} records/s`,
      met: readRate >= MARGIN * API_CEILING_ROWS_PER_SECOND,
      measured: `${rows} records: airbyte read ${round(readSeconds, 1)} s (${readRate}/s), sync into DuckDB ${round(syncSeconds, 1)} s (${syncRate}/s)`,
      inputs: `${worldInputs(world)}; all streams, full read; each the compiled CLI in its own process; API limit off, client 6000/min`,
      detail: { rows, readSeconds: round(readSeconds, 2), syncSeconds: round(syncSeconds, 2), readRate, syncRate },
    };
  } finally {
    delete process.env.AIVIS_BENCH_KEY;
    await rm(dir, { recursive: true, force: true });
    await sandbox.close();
  }
}
