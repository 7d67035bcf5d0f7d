/**
 * Figure 3: rows/s the real load path reaches (`Destination.commit`: staging, deduplicating
 * upsert and state in one transaction, in the engine's flush size) over rows/s of the
 * warehouse's own bulk path for the same rows into an unindexed table of the same columns:
 * one `COPY ... FROM STDIN` for Postgres, one appender for DuckDB. Both sides start from the
 * same JS rows and encode them with the connector's own encoders, so the ratio isolates what
 * staging, upsert, state and transactions cost. Best of `rounds` fresh-table rounds each,
 * because other processes share the machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createDuckdbDestination } from '../../connectors/duckdb/index.ts';
import { appendCell } from '../../connectors/duckdb/duckdb-types.ts';
import { createPostgresDestination } from '../../connectors/postgres/index.ts';
import { csvField } from '../../connectors/postgres/postgres-types.ts';
import type { Destination } from '../../src/destination/destination.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { ENGINE_TABLES, mentionsTable } from '../../src/tables/index.ts';
import { atLeast, round, type BenchFigure } from './bench-figure.ts';
import type { MentionBatch } from './mention-rows.ts';
import { commitFlush } from '../../src/state/state-rows.ts';

interface Rates {
  aivis: number;
  plain: number;
}

/** Seconds `work` takes. */
async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1000;
}

async function commitAll(destination: Destination, batches: readonly MentionBatch[]): Promise<void> {
  for (const { rows, state } of batches)
    await commitFlush(destination, { tables: [{ table: mentionsTable, rows }], state: [state] });
}

async function bestOf(rounds: number, once: (round: number) => Promise<Rates>): Promise<Rates> {
  const best: Rates = { aivis: 0, plain: 0 };
  for (let r = 0; r < rounds; r++) {
    const rates = await once(r);
    best.aivis = Math.max(best.aivis, rates.aivis);
    best.plain = Math.max(best.plain, rates.plain);
  }
  return best;
}

async function postgresRates(
  databaseUrl: string,
  batches: readonly MentionBatch[],
  rows: number,
  round: number,
): Promise<Rates> {
  const schema = `load_${round}`;
  const destination = createPostgresDestination(
    { type: 'postgres', url: databaseUrl, schema },
    { logger: silentLogger },
  );
  await destination.open();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await destination.ensureTables([...ENGINE_TABLES, mentionsTable]);
    const aivisSeconds = await timed(() => commitAll(destination, batches));
    await client.query(`CREATE TABLE "${schema}".plain (LIKE "${schema}".mentions)`);
    const columns = mentionsTable.columns;
    const csv = function* () {
      for (const batch of batches)
        yield batch.rows.map((row) => `${columns.map((c) => csvField(c.type, row[c.name])).join(',')}\n`).join('');
    };
    const plainSeconds = await timed(() =>
      pipeline(Readable.from(csv()), client.query(copyFrom(`COPY "${schema}".plain FROM STDIN WITH (FORMAT csv)`))),
    );
    return { aivis: rows / aivisSeconds, plain: rows / plainSeconds };
  } finally {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
    await destination.close();
  }
}

async function duckdbRates(batches: readonly MentionBatch[], rows: number): Promise<Rates> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-bench-duckdb-'));
  const file = path.join(dir, 'bench.duckdb');
  const destination = createDuckdbDestination(
    { type: 'duckdb', path: file, schema: 'aivis' },
    { logger: silentLogger },
  );
  await destination.open();
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.fromCache(file);
  const connection = await instance.connect();
  try {
    await destination.ensureTables([...ENGINE_TABLES, mentionsTable]);
    const aivisSeconds = await timed(() => commitAll(destination, batches));
    await connection.run('CREATE TABLE aivis.plain AS FROM aivis.mentions LIMIT 0');
    const columns = mentionsTable.columns;
    const plainSeconds = await timed(async () => {
      const appender = await connection.createAppender('plain', 'aivis');
      for (const batch of batches) {
        for (const row of batch.rows) {
          for (const c of columns) appendCell(appender, c.type, row[c.name]);
          appender.endRow();
        }
      }
      appender.flushSync();
      appender.closeSync();
    });
    return { aivis: rows / aivisSeconds, plain: rows / plainSeconds };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await destination.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function loadSpeed(
  databaseUrl: string,
  batches: readonly MentionBatch[],
  rounds: number,
): Promise<BenchFigure[]> {
  const rows = batches.reduce((sum, b) => sum + b.rows.length, 0);
  const flush = batches[0]?.rows.length ?? 0;
  const inputs = `${rows} mention rows, ${batches.length} flushes of ${flush} rows + 1 state row each, into empty tables; best of ${rounds} rounds`;
  const figure = (key: string, name: string, bulk: string, rates: Rates): BenchFigure => {
    const value = round(rates.aivis / rates.plain);
    return {
      key,
      figure: `Load speed, ${name} / ${bulk}`,
      value,
      ...atLeast(0.5)(value),
      measured: `${Math.round(rates.aivis)} rows/s / ${Math.round(rates.plain)} rows/s`,
      inputs,
      detail: {
        aivisRowsPerSecond: Math.round(rates.aivis),
        bulkRowsPerSecond: Math.round(rates.plain),
        rows,
        flushRows: flush,
      },
    };
  };
  const postgres = await bestOf(rounds, (r) => postgresRates(databaseUrl, batches, rows, r));
  const duckdb = await bestOf(rounds, () => duckdbRates(batches, rows));
  return [
    figure('load_speed.postgres', 'Postgres', 'plain COPY', postgres),
    figure('load_speed.duckdb', 'DuckDB', 'plain appender', duckdb),
  ];
}
