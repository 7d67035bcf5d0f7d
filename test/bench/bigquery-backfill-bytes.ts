/**
 * Figure: BigQuery bytes processed by the fill of a column schema evolution adds
 * (docs/served-contract.md#schema-evolution): one UPDATE per table that reads each row's `_raw`
 * and writes the new columns, here `url` and `rank` declared on `citations`. BigQuery bills an
 * UPDATE with every column of the rows it rewrites, so the figure is that job's bytes over one
 * read of the whole table (`SELECT *`): the fill should cost one pass over the table, no more.
 * The table's rows are synthesized in the stand-in's DuckDB with `range()`, each with the `_raw`
 * of a citation as the sandbox serves it; bytes as the BigQuery stand-in bills them
 * (test/stand-ins/bigquery/stand-in-billing.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createBigqueryDestination } from '../../connectors/bigquery/index.ts';
import type { DeclaredField } from '../../src/contract/declared-fields.ts';
import { planEvolution } from '../../src/evolution/evolution-plan.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { citationsTable } from '../../src/tables/index.ts';
import { startBigqueryStandIn } from '../stand-ins/bigquery/bigquery-stand-in.ts';
import { fakeAuthClient } from '../stand-ins/bigquery/fake-auth.ts';
import { atMost, round, type BenchFigure } from './bench-figure.ts';

const ROWS_PER_DAY = 10_000;
/** History rows are inserted this many at a time (one DuckDB transaction each). */
const CHUNK = 1_000_000;

const field = (name: string, type: string): DeclaredField => ({
  name,
  schema: { type },
  required: true,
  nullable: false,
});
const DECLARED = [field('url', 'string'), field('rank', 'integer')];

const mb = (bytes: number) => `${round(bytes / 1024 / 1024, 1)} MB`;

export async function bigqueryBackfillBytes(tableRows: number): Promise<BenchFigure> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-bench-backfill-'));
  const standIn = await startBigqueryStandIn({ databaseFile: path.join(dir, 'stand-in.duckdb') });
  const dataset = 'bench';
  const table = `\`${standIn.projectId}.${dataset}.citations\``;
  const destination = createBigqueryDestination(
    { type: 'bigquery', project: standIn.projectId, dataset, location: 'US', api_endpoint: standIn.url },
    { logger: silentLogger, authClient: fakeAuthClient() },
  );
  try {
    await destination.open();
    await destination.ensureTables([citationsTable]);
    for (let from = 0; from < tableRows; from += CHUNK) {
      await standIn.engine.query(
        [
          `INSERT INTO ${table} (id, website_id, analysis_id, provider, observed_at, available_at, _synced_at, _run_id, _raw, _workspace)`,
          `SELECT 'cit_' || substr(md5(CAST(i AS VARCHAR)), 1, 24), 'web_bench', 'ana_bench', 'chatgpt',`,
          `  TIMESTAMP '2020-01-01 00:00:00+00' + to_days(CAST(i // ${ROWS_PER_DAY} AS INTEGER)), TIMESTAMP '2020-01-01 00:00:00+00',`,
          `  TIMESTAMP '2020-01-01 00:00:00+00', 'run_bench',`,
          `  CAST('{"id":"cit_' || substr(md5(CAST(i AS VARCHAR)), 1, 24) || '","website_id":"web_bench","analysis_id":"ana_bench","provider":"chatgpt","observed_at":"2020-01-01T00:00:00Z","available_at":"2020-01-01T00:00:00Z","url":"https://reviews.example/blog/' || substr(md5(CAST(i AS VARCHAR)), 1, 6) || '","domain":"reviews.example","title":"Tailspin: pricing and plans","rank":' || CAST(i % 10 + 1 AS VARCHAR) || '}' AS JSON),`,
          `  'default'`,
          `FROM range(${from}, ${Math.min(tableRows, from + CHUNK)}) AS t(i)`,
        ].join('\n'),
      );
    }
    const [plan] = planEvolution(
      [citationsTable],
      (stream, within) => (stream === 'citations' && within.length === 0 ? DECLARED : []),
      await destination.columnTypes([citationsTable]),
    );
    await destination.ensureTables([plan!.table]);
    const before = standIn.jobs.length;
    await destination.fillFromRaw(plan!.table, plan!.added);
    const fill = standIn.jobs
      .slice(before)
      .reduce((sum, job) => sum + Number(job.statistics.totalBytesProcessed ?? 0), 0);
    const raw = (await standIn.engine.query(`SELECT _raw FROM ${table} LIMIT 1`)).bytesProcessed;
    const whole = (await standIn.engine.query(`SELECT * FROM ${table} LIMIT 1`)).bytesProcessed;
    const value = round(fill / whole);
    return {
      key: 'bigquery_backfill_bytes',
      figure: `BigQuery bytes processed by the fill of 2 evolved columns of a ${tableRows / 1000}k-row citations table, over one read of the whole table`,
      value,
      ...atMost(1.05)(value),
      measured: `fill (one UPDATE): ${mb(fill)}; the whole table: ${mb(whole)}, its _raw: ${mb(raw)}`,
      inputs: `citations at ${ROWS_PER_DAY} rows a day (synthesized in the stand-in's DuckDB with range()), _raw of a sandbox citation with url and rank; url (string) and rank (int64) declared; bytes as the BigQuery stand-in bills them`,
      detail: { tableRows, fill, whole, raw },
    };
  } finally {
    await destination.close();
    await standIn.close();
    await rm(dir, { recursive: true, force: true });
  }
}
