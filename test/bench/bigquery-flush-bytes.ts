/**
 * Figure 6: BigQuery bytes processed by one 5,000-row flush into `mentions` holding 1M vs
 * 10M rows, as the BigQuery stand-in bills them (test/stand-ins/bigquery/stand-in-billing.ts:
 * referenced columns of the partitions a job reads, at least 10 MB per table). The flush is
 * the real `Destination.commit` through the real client. The table's history is synthesized
 * in the stand-in's DuckDB with `range()` (loading 10M rows through aivis would take many
 * minutes and measure nothing new): 10,000 rows a day, so 10M rows are 1,000 days where 1M
 * are 100, each row with the strings of a real mention row and an id of its own. The flush
 * lands on the newest day: 4,500 new mentions and 500 already stored there.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createBigqueryDestination } from '../../connectors/bigquery/index.ts';
import type { Row } from '../../src/destination/table-spec.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { mentionsTable } from '../../src/tables/index.ts';
import { startBigqueryStandIn, type BigqueryStandIn } from '../stand-ins/bigquery/bigquery-stand-in.ts';
import { fakeAuthClient } from '../stand-ins/bigquery/fake-auth.ts';
import type { RestQueryParameter } from '../stand-ins/bigquery/stand-in-sql.ts';
import { atMost, round, type BenchFigure } from './bench-figure.ts';
import { mentionBatches } from './mention-rows.ts';
import { commitFlush } from '../../src/state/state-rows.ts';

const ROWS_PER_DAY = 10_000;
const FLUSH_ROWS = 5_000;
const ALREADY_STORED = 500;
const FIRST_DAY = Date.parse('2020-01-01T00:00:00Z');
/** The columns history rows fill, named so a column added later (NULL here) cannot shift them. */
const HISTORY_COLUMNS = [
  'id',
  'website_id',
  'analysis_id',
  'observed_at',
  'available_at',
  'provider',
  'sentence_text',
  'sentence_text_truncated',
  'position_in_response',
  'sentiment',
  'mention_spans',
  '_synced_at',
  '_run_id',
  '_raw',
  '_workspace',
];
/** History rows are inserted this many at a time (one DuckDB transaction each). */
const CHUNK = 1_000_000;

interface FlushBytes {
  tableRows: number;
  /** Bytes of the whole flush, and of its key query and MERGE. */
  flush: number;
  keyQuery: number;
  merge: number;
  /** What a MERGE without partition bounds reads: the whole table. */
  wholeTable: number;
}

/** The id and observed_at of history row `i`: `men_` + 24 hex digits, 8 s apart within its day. */
function historyId(i: number): string {
  return `men_${createHash('md5').update(String(i)).digest('hex').slice(0, 24)}`;
}

function historyObservedAt(i: number): string {
  const ms = FIRST_DAY + Math.floor(i / ROWS_PER_DAY) * 86_400_000 + (i % ROWS_PER_DAY) * 8000;
  return `${new Date(ms).toISOString().slice(0, 19)}.000000Z`;
}

const text = (name: string, value: string): RestQueryParameter => ({
  name,
  parameterType: { type: 'STRING' },
  parameterValue: { value },
});

async function historyInto(standIn: BigqueryStandIn, dataset: string, template: Row, rows: number): Promise<void> {
  const strings = [
    'website_id',
    'analysis_id',
    'provider',
    'sentence_text',
    'mention_spans',
    '_run_id',
    '_raw',
    '_workspace',
  ].map((c) => text(c, String(template[c])));
  for (let from = 0; from < rows; from += CHUNK) {
    await standIn.engine.query(
      [
        `INSERT INTO \`${standIn.projectId}.${dataset}.mentions\` (${HISTORY_COLUMNS.join(', ')})`,
        `SELECT 'men_' || substr(md5(CAST(i AS VARCHAR)), 1, 24), @website_id, @analysis_id,`,
        `  TIMESTAMP '2020-01-01 00:00:00+00' + to_days(CAST(i // ${ROWS_PER_DAY} AS INTEGER)) + to_seconds(CAST((i % ${ROWS_PER_DAY}) * 8 AS DOUBLE)),`,
        `  TIMESTAMP '2020-01-01 00:00:00+00', @provider, @sentence_text, false, 7, 50.5, CAST(@mention_spans AS JSON),`,
        `  TIMESTAMP '2020-01-01 00:00:00+00', @_run_id, CAST(@_raw AS JSON), @_workspace`,
        `FROM range(${from}, ${Math.min(rows, from + CHUNK)}) AS t(i)`,
      ].join('\n'),
      strings,
    );
  }
}

async function flushInto(tableRows: number, sample: readonly Row[]): Promise<FlushBytes> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-bench-bigquery-'));
  const standIn = await startBigqueryStandIn({ databaseFile: path.join(dir, 'stand-in.duckdb') });
  const dataset = 'bench';
  const destination = createBigqueryDestination(
    { type: 'bigquery', project: standIn.projectId, dataset, location: 'US', api_endpoint: standIn.url },
    { logger: silentLogger, authClient: fakeAuthClient() },
  );
  try {
    await destination.open();
    await destination.ensureTables([mentionsTable]);
    await historyInto(standIn, dataset, sample[0]!, tableRows);
    // The newest day's last rows come again (re-delivered); the rest are new mentions of that day.
    const stored = Array.from({ length: ALREADY_STORED }, (_, k) => tableRows - ALREADY_STORED + k);
    const newestDay = historyObservedAt(tableRows - 1).slice(0, 10);
    const rows = sample.slice(0, FLUSH_ROWS).map((row, k) =>
      k < ALREADY_STORED
        ? { ...row, id: historyId(stored[k]!), observed_at: historyObservedAt(stored[k]!) }
        : {
            ...row,
            observed_at: `${newestDay}T${String(Math.floor(k / 240) % 24).padStart(2, '0')}:${String(k % 60).padStart(2, '0')}:00.000000Z`,
          },
    );
    const before = standIn.jobs.length;
    const result = await commitFlush(destination, { tables: [{ table: mentionsTable, rows }], state: [] });
    const billed = (prefix: string) =>
      standIn.jobs
        .slice(before)
        .filter((job) => job.configuration.query?.query.startsWith(prefix))
        .reduce((sum, job) => sum + Number(job.statistics.totalBytesProcessed ?? 0), 0);
    // A SELECT * bills every column of every partition, as the unbounded MERGE did.
    const whole = await standIn.engine.query(`SELECT * FROM \`${standIn.projectId}.${dataset}.mentions\` LIMIT 1`);
    return {
      tableRows,
      flush: result.bytesProcessed ?? 0,
      keyQuery: billed('SELECT COUNT(*) AS misplaced'),
      merge: billed('MERGE INTO'),
      wholeTable: whole.bytesProcessed,
    };
  } finally {
    await destination.close();
    await standIn.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => `${round(bytes / 1024 / 1024, 1)} MB`;

export async function bigqueryFlushBytes(tableSizes: readonly [number, number]): Promise<BenchFigure> {
  const [sample] = await mentionBatches(FLUSH_ROWS, FLUSH_ROWS);
  const [small, large] = [await flushInto(tableSizes[0], sample!.rows), await flushInto(tableSizes[1], sample!.rows)];
  const value = round(large.flush / small.flush);
  const label = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);
  const part = (f: FlushBytes) =>
    `${label(f.tableRows)} rows: ${mb(f.flush)} (key query ${mb(f.keyQuery)}, MERGE ${mb(f.merge)})`;
  return {
    key: 'bigquery_flush_bytes',
    figure: `BigQuery bytes processed per 5,000-row flush into a table of ${label(small.tableRows)} vs ${label(large.tableRows)} rows`,
    value,
    ...atMost(1.1)(value),
    measured: `${part(small)}; ${part(large)}; a MERGE without partition bounds read the whole table: ${mb(small.wholeTable)} / ${mb(large.wholeTable)}`,
    inputs: `mentions at ${ROWS_PER_DAY} rows a day (synthesized in the stand-in's DuckDB with range()), flush of ${FLUSH_ROWS} real mention rows on the newest day, ${ALREADY_STORED} of them already stored; bytes as the BigQuery stand-in bills them`,
    detail: { small, large },
  };
}
