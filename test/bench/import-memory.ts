/**
 * Figure 10: peak RSS of `aivis import-prompts --from-table --validate-only` reading N prompt
 * rows from Postgres (issue 30): the rows stream through a cursor a page at a time, the known
 * digests sit in one Buffer, so the peak must not grow with N. The sandbox runs in a process of
 * its own with its rate limit off, both clocks `CLOCK_FACTOR` times fast (a thousand operations
 * polled every 2 s would otherwise take half an hour); the import runs in a third process,
 * with the node flags of the container image.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { atMost, round, type BenchFigure } from './bench-figure.ts';
import { spawnSandbox } from './sandbox-child.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLOCK_FACTOR = 200;
/** How the container image runs node (its NODE_OPTIONS): the heap the product is measured in. */
const IMAGE_NODE_FLAGS = ['--max-semi-space-size=1', '--max-old-space-size=256'];

interface ChildResult {
  code: number;
  maxRssKb: number;
  report: { rows: { read: number; sent: number }; partitions: unknown[]; totals: { would_create: number } };
}

function runImportChild(payload: {
  env: NodeJS.ProcessEnv;
  clockFactor: number;
  argv: unknown;
}): Promise<{ result: ChildResult; seconds: number }> {
  const start = performance.now();
  const { env: _env, ...childArgs } = payload;
  const args = [
    ...IMAGE_NODE_FLAGS,
    '--import',
    './test/setup/loopback-guard.ts',
    'test/bench/import-child.ts',
    JSON.stringify(childArgs),
  ];
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...payload.env };
    execFile(process.execPath, args, { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`aivis import-prompts failed (${error.message}):\n${stderr.slice(-2000)}`));
      else resolve({ result: JSON.parse(stdout) as ChildResult, seconds: (performance.now() - start) / 1000 });
    });
  });
}

async function firstWebsite(baseUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${baseUrl}/public/v2/websites?limit=1`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  const body = (await response.json()) as { data: { id: string }[] };
  const id = body.data[0]?.id;
  if (!id) throw new Error(`the sandbox listed no website (${response.status})`);
  return id;
}

/** One import of `rows` prompt rows from a fresh database (`database()`). */
export async function importMemory(rows: number, databaseUrl: string): Promise<BenchFigure> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query('CREATE SCHEMA aivis');
  await db.query(
    `CREATE TABLE aivis.prompts AS SELECT 'p' || lpad(g::text, 8, '0') AS client_id, 'What is the best CRM for team number ' || g || '?' AS prompt_text FROM generate_series(1, $1::int) AS g`,
    [rows],
  );
  await db.end();
  const sandbox = await spawnSandbox({ seed: 4, websites: 1, requestsPerMinute: 0, clockFactor: CLOCK_FACTOR });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-bench-import-'));
  try {
    const keyFile = path.join(dir, 'api-key');
    await writeFile(keyFile, sandbox.apiKey, { mode: 0o600 });
    const config = path.join(dir, 'aivis.yaml');
    await writeFile(
      config,
      `source:\n  base_url: ${sandbox.baseUrl}\n  api_key_file: ${keyFile}\n  requests_per_minute: 6000\ndestination:\n  type: postgres\n  url: \${AIVIS_BENCH_IMPORT_URL}\n  schema: aivis\n`,
    );
    const website = await firstWebsite(`${sandbox.baseUrl}`, sandbox.apiKey);
    const { result, seconds } = await runImportChild({
      env: { AIVIS_BENCH_IMPORT_URL: databaseUrl },
      clockFactor: CLOCK_FACTOR,
      argv: { config, website, 'from-table': 'prompts', 'validate-only': true },
    });
    if (result.code !== 0 || result.report.rows.sent !== rows)
      throw new Error(`the import did not validate every row: ${JSON.stringify(result.report).slice(0, 2000)}`);
    const value = round(result.maxRssKb / 1024, 1);
    return {
      key: `import_memory.${rows}`,
      figure: `Peak RSS of aivis import-prompts --from-table --validate-only, ${rows.toLocaleString('en-US')} Postgres rows (MB)`,
      value,
      ...atMost(256)(value),
      measured: `${value} MB; ${result.report.partitions.length} operations, ${Math.round(rows / seconds)} rows/s in ${round(seconds, 1)} s`,
      inputs: `Postgres table of ${rows} rows, sandbox rate limit off, clocks ${CLOCK_FACTOR}x, node ${IMAGE_NODE_FLAGS.join(' ')}`,
      detail: { peakMb: value, rows, operations: result.report.partitions.length, seconds: round(seconds, 1) },
    };
  } finally {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}
