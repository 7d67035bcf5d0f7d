/**
 * The BigQuery destination: wires the client, the SQL and the lease lock behind the
 * `Destination` interface. Each flush: per table, a staging table that expires on its own,
 * one NDJSON load job into it, one MERGE into the target (into a table partitioned by day,
 * one key query first and a MERGE that reads only the partitions it needs), then the staging
 * table is dropped; state goes last, the same way (rows first, then state: BigQuery DML is
 * not transactional across statements without scripting sessions).
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Destination, FlushResult, RunIdentity } from '../../src/destination/destination.ts';
import { type LeaseLock, leaseLockTable } from '../../src/destination/lease-lock.ts';
import { releaseOnce } from '../../src/destination/run-lock.ts';
import type { ColumnSpec, ColumnType, Row, TableSpec } from '../../src/destination/table-spec.ts';
import { fillFromRawSql } from '../../src/evolution/fill-sql.ts';
import { assertOwnView, storedViewDescription, type ViewSpec, viewDialect } from '../../src/destination/view-spec.ts';
import { DestinationError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { checkBigqueryPermissions } from './bigquery-check.ts';
import { type BigqueryClient, openBigqueryClient, TableChangedError } from './bigquery-client.ts';
import {
  BIGQUERY_CAPABILITIES,
  type BigqueryConfig,
  clientOptions,
  DEFAULT_JOB_TIMEOUT_SECONDS,
  jobLabels,
  STAGING_TTL_MS,
} from './bigquery-config.ts';
import { credentialsAvoidMetadataServer, keyFileAuthClient } from './bigquery-credentials.ts';
import { acquireBigqueryLock, createLeaseTable } from './bigquery-lock.ts';
import { type PartitionRange, partitionRange, rangeParams, widenRange } from './bigquery-partition-range.ts';
import {
  bigqueryBookkeeping,
  createDatasetDdl,
  createTableDdl,
  mergeSql,
  misplacedKeysSql,
  quoteTable,
  createViewDdl,
  type TableRef,
} from './bigquery-sql.ts';
import { schemaPatch } from './bigquery-schema-patch.ts';
import { BIGQUERY_DIALECT } from './bigquery-dialect.ts';
import { columnTypesOfFields, ndjsonLine, stagingField, targetField } from './bigquery-types.ts';

export interface BigqueryDeps {
  readonly logger: Logger;
  /** A ready google-auth-library client (tests, embedders); otherwise `key_file`, else ADC. */
  readonly authClient?: unknown;
  /** Clock of lock leases, staging expiry and job deadlines. */
  readonly now?: () => Date;
  /** The run whose jobs these are: their labels and job ids. */
  readonly run?: RunIdentity;
  /** Waits between job retries and polls (tests: at once). */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The retry backoff's jitter draw in [0, 1). */
  readonly random?: () => number;
}

/** Patches of one table tried before giving up, each after re-reading it: one per run racing to change it, in practice. */
const PATCH_ATTEMPTS = 8;

/** The configured client: its credentials (the metadata server probed only when ADC needs it), labels and job settings. */
export async function connectBigquery(config: BigqueryConfig, deps: BigqueryDeps): Promise<BigqueryClient> {
  if (credentialsAvoidMetadataServer(config, process.env, deps.authClient !== undefined)) {
    process.env.METADATA_SERVER_DETECTION ??= 'none';
  }
  const authClient = deps.authClient ?? (config.key_file ? await keyFileAuthClient(config.key_file) : undefined);
  return openBigqueryClient(
    clientOptions(config, authClient),
    config.dataset,
    {
      labels: jobLabels(deps.run),
      jobTimeoutMs: (config.job_timeout_seconds ?? DEFAULT_JOB_TIMEOUT_SECONDS) * 1000,
      ...(deps.run ? { runId: deps.run.runId } : {}),
      now: deps.now ?? (() => new Date()),
      sleep: deps.sleep ?? ((ms) => sleep(ms)),
      random: deps.random ?? Math.random,
    },
    deps.logger,
  );
}

export function createBigqueryDestination(config: BigqueryConfig, deps: BigqueryDeps): Destination {
  const { logger } = deps;
  const now = deps.now ?? (() => new Date());
  let client: BigqueryClient | undefined;
  /** The run lock this destination holds, checked before each write. */
  let lease: LeaseLock | undefined;

  const session = (): BigqueryClient => {
    if (!client) throw new DestinationError('BigQuery destination used before open()');
    return client;
  };
  const ref = (table: string): TableRef => ({ project: config.project, dataset: config.dataset, table });
  const inViews = viewDialect(BIGQUERY_DIALECT, (name) => quoteTable(ref(name)));

  const ensureTable = async (table: TableSpec) => {
    const c = session();
    // Runs of other workspaces or shards may add columns to the same table at once: a patch
    // names the version it was computed from, and one that lost the race is computed again.
    for (let attempt = 1; ; attempt++) {
      const existing = await c.tableMetadata(table.name);
      if (!existing) {
        await c.createTable(table.name, {
          fields: table.columns.map(targetField),
          description: table.description,
          partitionBy: table.partitionBy,
          clusterBy: table.clusterBy,
        });
        return;
      }
      // Metadata only: added NULLABLE columns and descriptions, never a rewrite.
      const fields = schemaPatch(existing.fields, table.columns);
      const description = existing.description === table.description ? undefined : table.description;
      if (!fields && description === undefined) return;
      try {
        await c.patchTable(table.name, { fields, description, ...(existing.etag ? { etag: existing.etag } : {}) });
        return;
      } catch (error) {
        if (!(error instanceof TableChangedError) || attempt >= PATCH_ATTEMPTS) throw error;
      }
    }
  };

  /** Creates or updates one view: its query and description, then its fields' descriptions. */
  const ensureView = async (view: ViewSpec) => {
    const c = session();
    const existing = await c.tableMetadata(view.name);
    assertOwnView(
      view,
      existing && { kind: existing.type === 'VIEW' ? 'view' : 'table', comment: existing.description ?? null },
      `${config.dataset}.${view.name}`,
    );
    const query = view.query(inViews);
    const description = storedViewDescription(view, query);
    if (!existing) await c.createView(view.name, query, description);
    else if (existing.viewQuery !== query || existing.description !== description)
      await c.patchTable(view.name, { viewQuery: query, description });
    // BigQuery derives a view's fields from its query; their descriptions are set on them after.
    const current = existing && existing.viewQuery === query ? existing : await c.tableMetadata(view.name);
    const fields = schemaPatch(current?.fields ?? [], view.columns);
    if (fields) await c.patchTable(view.name, { fields });
  };

  /** A leftover staging table costs nothing and expires on its own. */
  const dropQuietly = async (table: string) => {
    await session()
      .dropTable(table)
      .catch((error: unknown) =>
        logger.warn('could not drop a BigQuery work table; it expires on its own', { table, error }),
      );
  };

  /**
   * The partitions a flush's MERGE must read: those its rows fall in, plus those where a staged
   * key is already stored under another value of the partitioning column (docs/destinations/bigquery.md#cost-and-quotas).
   */
  const partitionsToMerge = async (table: TableSpec, staging: string, rows: readonly Row[]) => {
    const range = partitionRange(rows, table.partitionBy!);
    const { rows: found } = await session().query(
      misplacedKeysSql(ref(table.name), ref(staging), table, range),
      rangeParams(range),
    );
    const { misplaced, earliest, latest, undated } = found[0] ?? {};
    if (!Number(misplaced ?? 0)) return range;
    logger.warn('BigQuery: staged rows are stored under another partition; the MERGE covers those partitions too', {
      table: table.name,
      rows: Number(misplaced),
      column: table.partitionBy,
    });
    return widenRange(range, earliest as string | null, latest as string | null, Number(undated ?? 0) > 0);
  };

  const upsert = async (table: TableSpec, rows: readonly Row[]) => {
    const c = session();
    const staging = `_aivis_stage_${table.name}_${randomUUID().replaceAll('-', '')}`;
    await c.createTable(staging, {
      fields: table.columns.map(stagingField),
      expiresAt: now().getTime() + STAGING_TTL_MS,
    });
    try {
      await c.load(staging, () => stagingLines(table.columns, rows));
      const range: PartitionRange | undefined = table.partitionBy
        ? await partitionsToMerge(table, staging, rows)
        : undefined;
      await c.query(mergeSql(ref(table.name), ref(staging), table, range), range ? rangeParams(range) : {});
    } finally {
      await dropQuietly(staging);
    }
  };

  return {
    type: 'bigquery',
    capabilities: BIGQUERY_CAPABILITIES,
    namespace: { database: config.project, schema: config.dataset },

    async open() {
      client ??= await connectBigquery(config, deps);
    },

    async check(scope) {
      const c = session();
      await c.ensureDataset();
      await checkBigqueryPermissions(
        c,
        ref,
        now,
        scope.tables.map((t) => t.name),
      );
    },

    async ensureTables(tables) {
      await session().ensureDataset();
      for (const table of tables) await ensureTable(table);
    },

    async columnTypes(tables) {
      const c = session();
      const found = new Map<string, Map<string, ColumnType>>();
      for (const table of tables) {
        const existing = await c.tableMetadata(table.name);
        if (existing) found.set(table.name, columnTypesOfFields(existing.fields));
      }
      return found;
    },

    async fillFromRaw(table, columns) {
      if (!columns.length) return;
      await lease?.assertHeld();
      await session().query(fillFromRawSql(quoteTable(ref(table.name)), BIGQUERY_DIALECT, columns));
    },

    describeDdl(tables) {
      const { project, dataset, location } = config;
      return [createDatasetDdl(project, dataset, location), ...tables.map((t) => createTableDdl(ref(t.name), t))];
    },

    async ensureViews(views) {
      for (const view of views) await ensureView(view);
    },

    describeViewDdl: (views) => views.map((v) => createViewDdl(ref(v.name), v, v.query(inViews))),

    async commit(parts): Promise<FlushResult> {
      const c = session();
      await lease?.assertHeld();
      const before = { ...c.usage };
      const rowsWritten: Record<string, number> = {};
      // Parts come in order, state last: rows are durable before the state that describes them.
      for (const { table, rows } of parts) {
        await upsert(table, rows);
        rowsWritten[table.name] = rows.length;
      }
      return {
        rowsWritten,
        jobs: c.usage.jobs - before.jobs,
        bytesProcessed: c.usage.bytesProcessed - before.bytesProcessed,
      };
    },

    bookkeeping() {
      const sql = bigqueryBookkeeping(session(), ref);
      // A holder whose lease ended changes no row (removal marks, abandoned runs, state): the next holder may be writing.
      return {
        ...sql,
        async change(statement, params) {
          await lease?.assertHeld();
          return sql.change(statement, params);
        },
      };
    },

    async acquireLock(owner) {
      const c = session();
      await c.ensureDataset();
      await createLeaseTable(c, ref(leaseLockTable.name));
      // A lock table made by an earlier version gains the columns added since.
      await ensureTable(leaseLockTable);
      const taken = await acquireBigqueryLock(c, ref(leaseLockTable.name), owner, { now, logger });
      lease = taken;
      return releaseOnce(async () => {
        if (lease === taken) lease = undefined;
        await taken.release();
      });
    },

    async close() {
      // The REST client holds no connection to close. A lease still held would otherwise be
      // renewed for as long as the process lives: end it.
      const held = lease;
      lease = undefined;
      await held
        ?.release()
        .catch((error: unknown) =>
          logger.warn('could not end the BigQuery run lock lease; it expires on its own', { error }),
        );
      client = undefined;
    },
  };
}

function* stagingLines(columns: readonly ColumnSpec[], rows: readonly Row[]): Generator<string> {
  for (const row of rows) yield ndjsonLine(columns, row);
}
