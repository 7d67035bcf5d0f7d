/**
 * One flush on BigQuery: per part, a staging table that expires on its own, one NDJSON load
 * job into it, one MERGE into the target (into a table partitioned by day, one key query first
 * and a MERGE that reads only the partitions it needs), then the staging table is dropped. Parts
 * in order, state last: rows are durable before the state that describes them (BigQuery DML is
 * not transactional across statements without scripting sessions).
 */
import { randomUUID } from 'node:crypto';
import type { FlushResult, TableRows } from '../../src/destination/destination.ts';
import type { ColumnSpec, Row, TableSpec } from '../../src/destination/table-spec.ts';
import type { Logger } from '../../src/log/logger.ts';
import type { BigqueryClient } from './bigquery-client.ts';
import { STAGING_TTL_MS } from './bigquery-config.ts';
import { type PartitionRange, partitionRange, rangeParams, widenRange } from './bigquery-partition-range.ts';
import { mergeSql, misplacedKeysSql, type TableRef } from './bigquery-sql.ts';
import { ndjsonLine, stagingField } from './bigquery-types.ts';

/** What a flush writes with. */
export interface BigqueryWriter {
  readonly client: BigqueryClient;
  readonly ref: (table: string) => TableRef;
  readonly now: () => Date;
  readonly logger: Logger;
}

export async function commitParts(w: BigqueryWriter, parts: readonly TableRows[]): Promise<FlushResult> {
  const before = { ...w.client.usage };
  const rowsWritten: Record<string, number> = {};
  for (const { table, rows } of parts) {
    await upsert(w, table, rows);
    rowsWritten[table.name] = rows.length;
  }
  return {
    rowsWritten,
    jobs: w.client.usage.jobs - before.jobs,
    bytesProcessed: w.client.usage.bytesProcessed - before.bytesProcessed,
  };
}

async function upsert(w: BigqueryWriter, table: TableSpec, rows: readonly Row[]): Promise<void> {
  const c = w.client;
  const staging = `_aivis_stage_${table.name}_${randomUUID().replaceAll('-', '')}`;
  await c.createTable(staging, {
    fields: table.columns.map(stagingField),
    expiresAt: w.now().getTime() + STAGING_TTL_MS,
  });
  try {
    await c.load(staging, () => stagingLines(table.columns, rows));
    const range: PartitionRange | undefined = table.partitionBy
      ? await partitionsToMerge(w, table, staging, rows)
      : undefined;
    await c.query(mergeSql(w.ref(table.name), w.ref(staging), table, range), range ? rangeParams(range) : {});
  } finally {
    // A leftover staging table costs nothing and expires on its own.
    await c
      .dropTable(staging)
      .catch((error: unknown) =>
        w.logger.warn('could not drop a BigQuery work table; it expires on its own', { table: staging, error }),
      );
  }
}

/**
 * The partitions a flush's MERGE must read: those its rows fall in, plus those where a staged
 * key is already stored under another value of the partitioning column (docs/destinations/bigquery.md#cost-and-quotas).
 */
async function partitionsToMerge(
  w: BigqueryWriter,
  table: TableSpec,
  staging: string,
  rows: readonly Row[],
): Promise<PartitionRange> {
  const range = partitionRange(rows, table.partitionBy!);
  const { rows: found } = await w.client.query(
    misplacedKeysSql(w.ref(table.name), w.ref(staging), table, range),
    rangeParams(range),
  );
  const { misplaced, earliest, latest, undated } = found[0] ?? {};
  if (!Number(misplaced ?? 0)) return range;
  w.logger.warn('BigQuery: staged rows are stored under another partition; the MERGE covers those partitions too', {
    table: table.name,
    rows: Number(misplaced),
    column: table.partitionBy,
  });
  return widenRange(range, earliest as string | null, latest as string | null, Number(undated ?? 0) > 0);
}

function* stagingLines(columns: readonly ColumnSpec[], rows: readonly Row[]): Generator<string> {
  for (const row of rows) yield ndjsonLine(columns, row);
}
