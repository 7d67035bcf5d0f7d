/**
 * The BigQuery destination: wires the client, its dialect, the tables API (bigquery-schema.ts),
 * the flush (bigquery-commit.ts) and the lease lock behind the `Destination` interface. Rows go
 * first, then state: BigQuery DML is not transactional across statements without scripting
 * sessions.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Destination, FlushResult, RunIdentity } from '../../src/destination/destination.ts';
import { type LeaseLock, leaseLockTable } from '../../src/destination/lease-lock.ts';
import { releaseOnce } from '../../src/destination/run-lock.ts';
import { viewDialect } from '../../src/destination/view-spec.ts';
import { fillFromRawSql } from '../../src/evolution/fill-sql.ts';
import { DestinationError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { checkBigqueryPermissions } from './bigquery-check.ts';
import { type BigqueryClient, openBigqueryClient } from './bigquery-client.ts';
import { commitParts } from './bigquery-commit.ts';
import {
  BIGQUERY_CAPABILITIES,
  type BigqueryConfig,
  clientOptions,
  DEFAULT_JOB_TIMEOUT_SECONDS,
  jobLabels,
} from './bigquery-config.ts';
import { credentialsAvoidMetadataServer, keyFileAuthClient } from './bigquery-credentials.ts';
import { BIGQUERY_DIALECT } from './bigquery-dialect.ts';
import { acquireBigqueryLock, createLeaseTable } from './bigquery-lock.ts';
import { bigqueryColumnTypes, ensureBigqueryTable, ensureBigqueryView } from './bigquery-schema.ts';
import {
  bigqueryBookkeeping,
  createDatasetDdl,
  createTableDdl,
  createViewDdl,
  quoteTable,
  type TableRef,
} from './bigquery-sql.ts';

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
      for (const table of tables) await ensureBigqueryTable(session(), table);
    },

    columnTypes: (tables) => bigqueryColumnTypes(session(), tables),

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
      for (const view of views) await ensureBigqueryView(session(), view, inViews, `${config.dataset}.${view.name}`);
    },

    describeViewDdl: (views) => views.map((v) => createViewDdl(ref(v.name), v, v.query(inViews))),

    async commit(parts): Promise<FlushResult> {
      await lease?.assertHeld();
      return commitParts({ client: session(), ref, now, logger }, parts);
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
      await ensureBigqueryTable(c, leaseLockTable);
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
