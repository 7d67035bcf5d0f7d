/**
 * The slice of `@google-cloud/bigquery` the connector uses, behind a small interface. The SDK
 * is imported only here, lazily in `openBigqueryClient`, so nothing loads it (or its auth
 * library) unless BigQuery is the configured destination. Every job is counted, and the
 * bytes BigQuery reports as processed are summed, for the run summary. A failed call becomes
 * a `DestinationError` that says what failed and, for a permission error, which role grants
 * the missing permission.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BigQuery, Dataset, Query } from '@google-cloud/bigquery';
import type { CellValue } from '../../src/destination/table-spec.ts';
import type { Logger } from '../../src/log/logger.ts';
import type { BigqueryClientOptions } from './bigquery-config.ts';
import { DestinationError, ExitCode } from '../../src/errors.ts';
import { decodeCell, type BigqueryField } from './bigquery-types.ts';

/** A named query parameter: its BigQuery type and value (`ARRAY<STRING>` for id lists). */
export type QueryParam =
  | { readonly type: 'STRING' | 'INT64' | 'TIMESTAMP' | 'BOOL'; readonly value: string | number | boolean | null }
  | { readonly type: 'ARRAY<STRING>'; readonly value: readonly string[] };

export interface QueryOutcome {
  readonly rows: Record<string, CellValue>[];
  /** `numDmlAffectedRows` of a DML statement; 0 for a SELECT. */
  readonly affectedRows: number;
}

/** The table resource fields `ensureTables` sets. */
export interface TableResource {
  readonly fields: readonly BigqueryField[];
  readonly description?: string;
  readonly partitionBy?: string;
  readonly clusterBy?: readonly string[];
  /** Epoch milliseconds after which BigQuery deletes the table on its own. */
  readonly expiresAt?: number;
}

/** What `tables.get` says of a table or view. */
export interface TableMetadata {
  readonly type: 'TABLE' | 'VIEW' | string;
  readonly fields: BigqueryField[];
  readonly description?: string;
  /** A view's query. */
  readonly viewQuery?: string;
}

/** A metadata change (`tables.patch`): no data is rewritten. */
export interface TablePatch {
  /** The whole field list: existing fields (descriptions may change) then appended NULLABLE ones. */
  readonly fields?: readonly BigqueryField[];
  readonly description?: string;
  /** A view's new query. */
  readonly viewQuery?: string;
}

export interface BigqueryUsage {
  jobs: number;
  bytesProcessed: number;
}

export interface BigqueryClient {
  readonly project: string;
  readonly dataset: string;
  /** Jobs issued and bytes processed since the client opened; callers diff it per flush. */
  readonly usage: Readonly<BigqueryUsage>;
  /** Creates the dataset in the configured location unless it exists; refuses one in another location. */
  ensureDataset(): Promise<void>;
  /** The table's fields, or undefined when the table does not exist. */
  tableFields(table: string): Promise<BigqueryField[] | undefined>;
  /** The table's or view's metadata, or undefined when there is none of that name. */
  tableMetadata(table: string): Promise<TableMetadata | undefined>;
  /** Creates the table; an "already exists" answer counts as success (a racing run made it). */
  createTable(table: string, resource: TableResource): Promise<void>;
  /** Creates a view (standard SQL) with its description. */
  createView(view: string, query: string, description: string): Promise<void>;
  /**
   * Changes metadata through `tables.patch`: descriptions, appended NULLABLE fields (BigQuery's
   * only schema change that needs no rewrite), a view's query.
   */
  patchTable(table: string, patch: TablePatch): Promise<void>;
  /** Drops the table; a missing table is fine. */
  dropTable(table: string): Promise<void>;
  /** One load job (`NEWLINE_DELIMITED_JSON`, append) streaming `lines` into the table. */
  load(table: string, lines: Iterable<string> | AsyncIterable<string>): Promise<void>;
  /** One query job; waits for it and reads every page of its result. */
  query(sql: string, params?: Readonly<Record<string, QueryParam>>): Promise<QueryOutcome>;
}

export async function openBigqueryClient(
  options: BigqueryClientOptions,
  datasetId: string,
  logger: Logger,
): Promise<BigqueryClient> {
  const { BigQuery } = await import('@google-cloud/bigquery');
  const bigquery = new BigQuery(options as ConstructorParameters<typeof BigQuery>[0]);
  return new SdkClient(bigquery, bigquery.dataset(datasetId, { location: options.location }), options, logger);
}

class SdkClient implements BigqueryClient {
  readonly project: string;
  readonly dataset: string;
  readonly usage: BigqueryUsage = { jobs: 0, bytesProcessed: 0 };
  readonly #bigquery: BigQuery;
  readonly #dataset: Dataset;
  readonly #location: string;
  readonly #logger: Logger;

  constructor(bigquery: BigQuery, dataset: Dataset, options: BigqueryClientOptions, logger: Logger) {
    this.#bigquery = bigquery;
    this.#dataset = dataset;
    this.#location = options.location;
    this.#logger = logger;
    this.project = options.projectId;
    this.dataset = dataset.id!;
  }

  async ensureDataset(): Promise<void> {
    const location = await this.#datasetLocation();
    if (location !== undefined) {
      // Jobs run in the configured location; in another one BigQuery answers "dataset not found".
      if (location.toUpperCase() !== this.#location.toUpperCase()) {
        throw new DestinationError(
          `BigQuery dataset ${this.project}:${this.dataset} is in location ${location}, but destination.location is ${this.#location}: set location: ${location}`,
        );
      }
      return;
    }
    try {
      await this.#dataset.create({ location: this.#location });
    } catch (error) {
      if (apiErrorCode(error) !== 409)
        throw bigqueryError(`create dataset ${this.project}:${this.dataset}`, error, this.dataset);
    }
  }

  async #datasetLocation(): Promise<string | undefined> {
    try {
      const [metadata] = await this.#dataset.getMetadata();
      return String(metadata.location ?? this.#location);
    } catch (error) {
      if (apiErrorCode(error) === 404) return undefined;
      throw bigqueryError(`read dataset ${this.project}:${this.dataset}`, error, this.dataset);
    }
  }

  async tableFields(table: string): Promise<BigqueryField[] | undefined> {
    return (await this.tableMetadata(table))?.fields;
  }

  async tableMetadata(table: string): Promise<TableMetadata | undefined> {
    try {
      const [metadata] = await this.#dataset.table(table).getMetadata();
      return {
        type: String(metadata.type ?? 'TABLE'),
        fields: (metadata.schema?.fields ?? []) as BigqueryField[],
        ...(metadata.description !== undefined ? { description: String(metadata.description) } : {}),
        ...(metadata.view?.query !== undefined ? { viewQuery: String(metadata.view.query) } : {}),
      };
    } catch (error) {
      if (apiErrorCode(error) === 404) return undefined;
      throw bigqueryError(`read table ${this.dataset}.${table}`, error, this.dataset);
    }
  }

  async createTable(table: string, resource: TableResource): Promise<void> {
    try {
      await this.#dataset.createTable(table, {
        schema: { fields: resource.fields.map((f) => ({ ...f })) },
        ...(resource.description ? { description: resource.description } : {}),
        ...(resource.partitionBy ? { timePartitioning: { type: 'DAY', field: resource.partitionBy } } : {}),
        ...(resource.clusterBy?.length ? { clustering: { fields: [...resource.clusterBy] } } : {}),
        ...(resource.expiresAt !== undefined ? { expirationTime: String(resource.expiresAt) } : {}),
      });
    } catch (error) {
      if (apiErrorCode(error) !== 409)
        throw bigqueryError(`create table ${this.dataset}.${table}`, error, this.dataset);
    }
  }

  async createView(view: string, query: string, description: string): Promise<void> {
    try {
      await this.#dataset.createTable(view, { view: { query, useLegacySql: false }, description });
    } catch (error) {
      throw bigqueryError(`create view ${this.dataset}.${view}`, error, this.dataset);
    }
  }

  async patchTable(table: string, patch: TablePatch): Promise<void> {
    try {
      await this.#dataset.table(table).setMetadata({
        ...(patch.fields ? { schema: { fields: patch.fields.map((f) => ({ ...f })) } } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.viewQuery !== undefined ? { view: { query: patch.viewQuery, useLegacySql: false } } : {}),
      });
    } catch (error) {
      throw bigqueryError(`update the metadata of ${this.dataset}.${table}`, error, this.dataset);
    }
  }

  async dropTable(table: string): Promise<void> {
    try {
      await this.#dataset.table(table).delete();
    } catch (error) {
      if (apiErrorCode(error) !== 404) throw bigqueryError(`drop table ${this.dataset}.${table}`, error, this.dataset);
    }
  }

  async load(table: string, lines: Iterable<string> | AsyncIterable<string>): Promise<void> {
    this.usage.jobs += 1;
    // createWriteStream holds back 'finish' until the load job is DONE and destroys the
    // stream with the job's errorResult, so the pipeline settles with the job's outcome.
    const upload = this.#dataset.table(table, { location: this.#location }).createWriteStream({
      sourceFormat: 'NEWLINE_DELIMITED_JSON',
      writeDisposition: 'WRITE_APPEND',
      jobPrefix: 'aivis_load_',
    } as Parameters<ReturnType<Dataset['table']>['createWriteStream']>[0]);
    try {
      await pipeline(Readable.from(lines), upload);
    } catch (error) {
      throw bigqueryError(`load into ${this.dataset}.${table}`, error, this.dataset);
    }
    this.#logger.debug('bigquery load job done', { table: `${this.dataset}.${table}` });
  }

  async query(sql: string, params: Readonly<Record<string, QueryParam>> = {}): Promise<QueryOutcome> {
    this.usage.jobs += 1;
    const request: Query = {
      query: sql,
      location: this.#location,
      jobPrefix: 'aivis_query_',
      ...sdkParams(params, (v) => this.#bigquery.timestamp(v)),
    };
    try {
      const [job] = await this.#bigquery.createQueryJob(request);
      const rows: Record<string, CellValue>[] = [];
      let page: Record<string, unknown> | null = { skipParsing: true, autoPaginate: false };
      let affectedRows: number | undefined;
      while (page) {
        const [raw, next, response] = (await job.getQueryResults(page)) as unknown as [
          RawRow[],
          Record<string, unknown> | null,
          QueryResponse,
        ];
        const fields = response.schema?.fields ?? [];
        for (const row of raw ?? []) rows.push(decodeRow(fields, row));
        // Every page of a finished job repeats its statistics: count them once.
        if (response.jobComplete !== false && affectedRows === undefined) {
          affectedRows = Number(response.numDmlAffectedRows ?? 0);
          this.usage.bytesProcessed += Number(response.totalBytesProcessed ?? 0);
        }
        page = next ? { ...next, skipParsing: true, autoPaginate: false } : null;
      }
      this.#logger.debug('bigquery query job done', { job: job.id, affectedRows });
      return { rows, affectedRows: affectedRows ?? 0 };
    } catch (error) {
      throw bigqueryError(`query (${sql.split('\n')[0]!.slice(0, 80)})`, error, this.dataset);
    }
  }
}

interface RawRow {
  f: { v: unknown }[];
}

interface QueryResponse {
  jobComplete?: boolean;
  schema?: { fields?: { name: string; type: string }[] };
  numDmlAffectedRows?: string;
  totalBytesProcessed?: string;
}

function decodeRow(fields: readonly { name: string; type: string }[], row: RawRow): Record<string, CellValue> {
  const out: Record<string, CellValue> = {};
  fields.forEach((field, i) => {
    out[field.name] = decodeCell(field.type, row.f[i]?.v);
  });
  return out;
}

/**
 * Named parameters in the SDK's `params` + `types` form (types are required for NULLs). A
 * TIMESTAMP goes as the SDK's timestamp object: given a plain string with type TIMESTAMP,
 * the SDK (9.3) sends an empty value.
 */
function sdkParams(
  params: Readonly<Record<string, QueryParam>>,
  timestamp: (iso: string) => unknown,
): Pick<Query, 'params' | 'types'> {
  const names = Object.keys(params);
  if (!names.length) return {};
  const values: Record<string, unknown> = {};
  const types: Record<string, string | string[]> = {};
  for (const name of names) {
    const param = params[name]!;
    values[name] =
      param.type === 'ARRAY<STRING>'
        ? [...param.value]
        : param.type === 'TIMESTAMP' && typeof param.value === 'string'
          ? timestamp(param.value)
          : param.value;
    types[name] = param.type === 'ARRAY<STRING>' ? ['STRING'] : param.type;
  }
  return { params: values, types } as Pick<Query, 'params' | 'types'>;
}

/** The predefined role that carries each permission the connector needs, and where to grant it. */
const ROLE_FOR_PERMISSION: Readonly<Record<string, string>> = {
  'bigquery.jobs.create': 'grant roles/bigquery.jobUser on the project',
  'bigquery.datasets.create': 'grant roles/bigquery.dataEditor on the project, or create the dataset yourself',
  'bigquery.datasets.get': 'grant roles/bigquery.dataEditor on the dataset',
  'bigquery.tables.create': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.get': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.getData': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.update': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.updateData': 'grant roles/bigquery.dataEditor',
  'bigquery.tables.delete': 'grant roles/bigquery.dataEditor',
};

interface ApiErrorLike {
  code?: number;
  message?: string;
  errors?: { reason?: string; message?: string }[];
}

export function apiErrorCode(error: unknown): number | undefined {
  return (error as ApiErrorLike | null)?.code;
}

/**
 * BigQuery's answer to a mutating statement that lost to a concurrent one on the same table,
 * once its own reruns are used up (DML documentation, "DML statement conflicts").
 */
export function isConcurrentUpdate(error: unknown): boolean {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  return /Could not serialize access to table \S+ due to concurrent update/.test(
    (cause as ApiErrorLike | null)?.message ?? '',
  );
}

/**
 * The two forms BigQuery words a 403 in: `Permission bigquery.tables.create denied on dataset
 * p:aivis (or it may not exist).` and `User does not have bigquery.jobs.create permission in
 * project p.`
 */
const PERMISSION_MESSAGES = [
  /Permission (bigquery\.[\w.]+) denied on (?:\w+ )?([^\s(]+)/,
  /does not have (bigquery\.[\w.]+) permission in (?:\w+ )?([^\s(]+?)\.?(?:\s|$)/,
];

export function missingPermission(error: unknown): { permission: string; resource: string } | undefined {
  const message = (error as ApiErrorLike | null)?.message ?? '';
  for (const pattern of PERMISSION_MESSAGES) {
    const match = pattern.exec(message);
    if (match) return { permission: match[1]!, resource: match[2]! };
  }
  return undefined;
}

/**
 * `what` names the operation (`load into aivis.mentions`); the BigQuery message follows, and
 * for a permission error the fix: `bigquery.tables.create on dataset aivis: grant roles/bigquery.dataEditor`.
 */
export function bigqueryError(what: string, error: unknown, dataset: string): DestinationError {
  const missing = missingPermission(error);
  if (missing) {
    const fix = ROLE_FOR_PERMISSION[missing.permission] ?? 'grant roles/bigquery.dataEditor and roles/bigquery.jobUser';
    const where = missing.permission === 'bigquery.jobs.create' ? `project ${missing.resource}` : `dataset ${dataset}`;
    return new DestinationError(
      `BigQuery ${what}: permission denied: ${missing.permission} on ${where}: ${fix}`,
      ExitCode.Failure,
      { cause: error },
    );
  }
  const e = (error ?? {}) as ApiErrorLike;
  const reason = e.errors?.[0]?.reason;
  const message = e.message ?? String(error);
  return new DestinationError(`BigQuery ${what} failed: ${message}${reason ? ` (${reason})` : ''}`, ExitCode.Failure, {
    cause: error,
  });
}
