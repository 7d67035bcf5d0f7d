/**
 * The BigQuery destination: wires the client, the SQL and the lease lock behind the
 * `Destination` interface. Each flush: per table, a staging table that expires on its own,
 * one NDJSON load job into it, one MERGE into the target (into a table partitioned by day,
 * one key query first and a MERGE that reads only the partitions it needs), then the staging
 * table is dropped;
 * state goes last, the same way (rows first, then state: BigQuery DML is not transactional
 * across statements without scripting sessions).
 */
import { randomUUID } from 'node:crypto';
import type { BigqueryConfig } from '../../schemas/config.ts';
import { sqlBookkeeping } from '../../src/destination/bookkeeping.ts';
import type {
  Destination,
  DestinationLock,
  FlushResult,
  LockOwner,
  TableRows,
  WindowIdsQuery,
} from '../../src/destination/destination.ts';
import type { StoredStateRow } from '../../src/destination/engine-tables.ts';
import type { ColumnSpec, Row, TableSpec } from '../../src/destination/table-spec.ts';
import { DestinationError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { openBigqueryClient, type BigqueryClient } from './bigquery-client.ts';
import { BIGQUERY_CAPABILITIES, STAGING_TTL_MS, clientOptions } from './bigquery-config.ts';
import { credentialsAvoidMetadataServer, keyFileAuthClient } from './bigquery-credentials.ts';
import { acquireLease, createLeaseTable, leaseLockTable, type BigqueryLease } from './bigquery-lock.ts';
import { partitionRange, rangeParams, widenRange, type PartitionRange } from './bigquery-partition-range.ts';
import {
  bigqueryBookkeeping,
  createDatasetDdl,
  createTableDdl,
  mergeSql,
  misplacedKeysSql,
  quoteTable,
  type TableRef,
} from './bigquery-sql.ts';
import { ndjsonLine, stagingField, targetField } from './bigquery-types.ts';

export interface BigqueryDestinationDeps {
  readonly logger: Logger;
  /** A ready google-auth-library client (tests, embedders); otherwise `key_file`, else ADC. */
  readonly authClient?: unknown;
  /** Clock of lock leases and staging expiry. */
  readonly now?: () => Date;
  /** Lease of the run lock; default 10 minutes, renewed every third of it. */
  readonly leaseMs?: number;
}

export class BigqueryDestination implements Destination {
  readonly type = 'bigquery';
  readonly capabilities = BIGQUERY_CAPABILITIES;
  readonly #config: BigqueryConfig;
  readonly #deps: BigqueryDestinationDeps;
  readonly #now: () => Date;
  #client: BigqueryClient | undefined;
  #lease: BigqueryLease | undefined;
  readonly #bookkeeping = sqlBookkeeping(() => bigqueryBookkeeping(this.#open(), (table) => this.#ref(table)));

  constructor(config: BigqueryConfig, deps: BigqueryDestinationDeps) {
    this.#config = config;
    this.#deps = deps;
    this.#now = deps.now ?? (() => new Date());
  }

  async open(): Promise<void> {
    if (this.#client) return;
    if (credentialsAvoidMetadataServer(this.#config, process.env, this.#deps.authClient !== undefined)) {
      process.env.METADATA_SERVER_DETECTION ??= 'none';
    }
    const authClient =
      this.#deps.authClient ?? (this.#config.key_file ? await keyFileAuthClient(this.#config.key_file) : undefined);
    this.#client = await openBigqueryClient(
      clientOptions(this.#config, authClient),
      this.#config.dataset,
      this.#deps.logger,
    );
  }

  async check(): Promise<void> {
    const client = this.#open();
    await client.ensureDataset();
    const probe = `_aivis_check_${randomUUID().replaceAll('-', '')}`;
    const probeTable: TableSpec = {
      name: probe,
      primaryKey: [],
      columns: [{ name: 'ok', type: 'boolean', nullable: false }],
    };
    await client.createTable(probe, {
      fields: probeTable.columns.map(targetField),
      expiresAt: this.#now().getTime() + 3_600_000,
    });
    try {
      await client.load(probe, [ndjsonLine(probeTable.columns, { ok: true })]);
      const { rows } = await client.query(`SELECT COUNT(*) AS n FROM ${quoteTable(this.#ref(probe))}`);
      if (rows[0]?.n !== 1)
        throw new DestinationError(
          `BigQuery check: wrote 1 row into ${client.dataset}.${probe} but read back ${String(rows[0]?.n)}`,
        );
    } finally {
      await this.#dropQuietly(probe);
    }
  }

  async ensureTables(tables: readonly TableSpec[]): Promise<void> {
    const client = this.#open();
    await client.ensureDataset();
    for (const table of tables) await this.#ensureTable(table);
  }

  describeDdl(tables: readonly TableSpec[]): string[] {
    const { project, dataset, location } = this.#config;
    return [createDatasetDdl(project, dataset, location), ...tables.map((t) => createTableDdl(this.#ref(t.name), t))];
  }

  async commit(parts: readonly TableRows[]): Promise<FlushResult> {
    const client = this.#open();
    await this.#lease?.assertHeld();
    const before = { ...client.usage };
    const rowsWritten: Record<string, number> = {};
    // Parts come in order, state last: rows are durable before the state that describes them.
    for (const { table, rows } of parts) {
      await this.#upsert(table, rows);
      rowsWritten[table.name] = rows.length;
    }
    return {
      rowsWritten,
      jobs: client.usage.jobs - before.jobs,
      bytesProcessed: client.usage.bytesProcessed - before.bytesProcessed,
    };
  }

  readState(): Promise<StoredStateRow[]> {
    return this.#bookkeeping.readState();
  }

  deleteState(match: { stream?: string; scope?: string }): Promise<number> {
    return this.#bookkeeping.deleteState(match);
  }

  listActiveWebsiteIds(): Promise<string[]> {
    return this.#bookkeeping.listActiveWebsiteIds();
  }

  windowIds(query: WindowIdsQuery): Promise<string[]> {
    return this.#bookkeeping.windowIds(query);
  }

  async markWebsitesRemoved(ids: readonly string[], removedAt: string): Promise<void> {
    if (!ids.length) return;
    await this.#lease?.assertHeld();
    await this.#bookkeeping.markWebsitesRemoved(ids, removedAt);
  }

  async markAbandonedRuns(currentRunId: string): Promise<void> {
    await this.#lease?.assertHeld();
    await this.#bookkeeping.markAbandonedRuns(currentRunId);
  }

  async acquireLock(owner: LockOwner): Promise<DestinationLock> {
    const client = this.#open();
    await client.ensureDataset();
    await createLeaseTable(client, this.#ref(leaseLockTable.name));
    // A lock table made by an earlier version gains the columns added since.
    await this.#ensureTable(leaseLockTable);
    const lease = await acquireLease(
      client,
      this.#ref(leaseLockTable.name),
      owner,
      { leaseMs: this.#deps.leaseMs ?? 600_000, now: this.#now },
      this.#deps.logger,
    );
    this.#lease = lease;
    return {
      release: async () => {
        if (this.#lease === lease) this.#lease = undefined;
        await lease.release();
      },
    };
  }

  async close(): Promise<void> {
    // The REST client holds no connection to close. A lease still held would otherwise be
    // renewed for as long as the process lives: end it.
    const lease = this.#lease;
    this.#lease = undefined;
    await lease
      ?.release()
      .catch((error: unknown) =>
        this.#deps.logger.warn('could not end the BigQuery run lock lease; it expires on its own', { error }),
      );
    this.#client = undefined;
  }

  #open(): BigqueryClient {
    if (!this.#client) throw new DestinationError('BigQuery destination used before open()');
    return this.#client;
  }

  #ref(table: string): TableRef {
    return { project: this.#config.project, dataset: this.#config.dataset, table };
  }

  async #ensureTable(table: TableSpec): Promise<void> {
    const client = this.#open();
    const existing = await client.tableFields(table.name);
    if (!existing) {
      await client.createTable(table.name, {
        fields: table.columns.map(targetField),
        partitionBy: table.partitionBy,
        clusterBy: table.clusterBy,
      });
      return;
    }
    const known = new Set(existing.map((f) => f.name));
    // BigQuery adds columns only as NULLABLE: a REQUIRED column cannot appear on old rows.
    const added = table.columns
      .filter((c) => !known.has(c.name))
      .map((c) => ({ ...targetField(c), mode: 'NULLABLE' as const }));
    if (added.length) await client.addFields(table.name, existing, added);
  }

  async #upsert(table: TableSpec, rows: readonly Row[]): Promise<void> {
    const client = this.#open();
    const staging = `_aivis_stage_${table.name}_${randomUUID().replaceAll('-', '')}`;
    await client.createTable(staging, {
      fields: table.columns.map(stagingField),
      expiresAt: this.#now().getTime() + STAGING_TTL_MS,
    });
    try {
      await client.load(staging, stagingLines(table.columns, rows));
      const range = table.partitionBy ? await this.#partitionsToMerge(table, staging, rows) : undefined;
      await client.query(
        mergeSql(this.#ref(table.name), this.#ref(staging), table, range),
        range ? rangeParams(range) : {},
      );
    } finally {
      await this.#dropQuietly(staging);
    }
  }

  /**
   * The partitions a flush's MERGE must read: those its rows fall in, plus those where a staged
   * key is already stored under another value of the partitioning column (README, BigQuery,
   * "Cost and quotas").
   */
  async #partitionsToMerge(table: TableSpec, staging: string, rows: readonly Row[]): Promise<PartitionRange> {
    const range = partitionRange(rows, table.partitionBy!);
    const { rows: found } = await this.#open().query(
      misplacedKeysSql(this.#ref(table.name), this.#ref(staging), table, range),
      rangeParams(range),
    );
    const { misplaced, earliest, latest, undated } = found[0] ?? {};
    if (!Number(misplaced ?? 0)) return range;
    this.#deps.logger.warn(
      'BigQuery: staged rows are stored under another partition; the MERGE covers those partitions too',
      {
        table: table.name,
        rows: Number(misplaced),
        column: table.partitionBy,
      },
    );
    return widenRange(range, earliest as string | null, latest as string | null, Number(undated ?? 0) > 0);
  }

  /** A leftover staging or probe table costs nothing and expires on its own. */
  async #dropQuietly(table: string): Promise<void> {
    await this.#open()
      .dropTable(table)
      .catch((error: unknown) =>
        this.#deps.logger.warn('could not drop a BigQuery work table; it expires on its own', { table, error }),
      );
  }
}

function* stagingLines(columns: readonly ColumnSpec[], rows: readonly Row[]): Generator<string> {
  for (const row of rows) yield ndjsonLine(columns, row);
}
