/**
 * The slice of `@google-cloud/bigquery` the connector uses, behind a small interface. The SDK
 * is imported only here, lazily in `openBigqueryClient`, so nothing loads it (or its auth
 * library) unless BigQuery is the configured destination. Every job is counted, and the
 * bytes BigQuery reports as processed are summed, for the run summary. A failed call becomes
 * a `DestinationError` that says what failed and, for a permission error, which role grants
 * the missing permission.
 *
 * Jobs (docs/destinations/bigquery.md, "Retries, deadlines and labels"): each has a deterministic
 * id (`aivis_<run id>_<client token>_<n>_<k>`, `<k>` counting the attempts known to have failed),
 * so an insert or upload whose answer was lost is found by that id (409 `duplicate`) instead of
 * run twice; a transient failure (`bigquery-retry.ts`) is retried with backoff, under the same
 * id while the job may still exist and under the next one once it failed. Every query job carries the run's labels and
 * `jobTimeoutMs`, and the client stops waiting (and cancels the job) a minute after it.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import type { BigQuery, Dataset, Job, Query } from '@google-cloud/bigquery';
import type { CellValue } from '../../src/destination/table-spec.ts';
import { microsecondTimestamp } from '../../src/destination/timestamp-micros.ts';
import type { Logger } from '../../src/log/logger.ts';
import type { BigqueryClientOptions, BigqueryJobSettings } from './bigquery-config.ts';
import { DestinationError, ExitCode } from '../../src/errors.ts';
import { type ErrorLike, MAX_ATTEMPTS, MAX_RETRY_MS, retryDelayMs, transientReason } from './bigquery-retry.ts';
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
  /** The version a patch may name (`TablePatch.etag`). */
  readonly etag?: string;
}

/** A metadata change (`tables.patch`): no data is rewritten. */
export interface TablePatch {
  /** The whole field list: existing fields (descriptions may change) then appended NULLABLE ones. */
  readonly fields?: readonly BigqueryField[];
  readonly description?: string;
  /** A view's new query. */
  readonly viewQuery?: string;
  /**
   * Apply only to this version of the table (`If-Match`): another run that changed it since it
   * was read makes the patch fail with `TableChangedError`, to be read and computed again.
   */
  readonly etag?: string;
}

/** A patch named a version of the table another run has changed since (HTTP 412). */
export class TableChangedError extends Error {}

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
  /** Creates a view (standard SQL) with its description; "already exists" counts as success (another workspace's run made it). */
  createView(view: string, query: string, description: string): Promise<void>;
  /**
   * Changes metadata through `tables.patch`: descriptions, appended NULLABLE fields (BigQuery's
   * only schema change that needs no rewrite), a view's query.
   */
  patchTable(table: string, patch: TablePatch): Promise<void>;
  /** Drops the table; a missing table is fine. */
  dropTable(table: string): Promise<void>;
  /**
   * One load job (`NEWLINE_DELIMITED_JSON`, append) streaming `lines()` into the table; a
   * retried upload calls `lines` again.
   */
  load(table: string, lines: () => Iterable<string> | AsyncIterable<string>): Promise<void>;
  /** One query job; waits for it and reads every page of its result. */
  query(sql: string, params?: Readonly<Record<string, QueryParam>>): Promise<QueryOutcome>;
  /** BigQuery's own reading of `sql`, from a dry run (nothing runs): `SELECT`, `INSERT`, `SCRIPT` for several statements ... */
  statementType(sql: string): Promise<string>;
  /** One query job whose result is read `pageRows` rows at a time, as BigQuery sends them. */
  queryPages(sql: string, pageRows: number): Promise<QueryPages>;
}

export async function openBigqueryClient(
  options: BigqueryClientOptions,
  datasetId: string,
  jobs: BigqueryJobSettings,
  logger: Logger,
): Promise<BigqueryClient> {
  const { BigQuery } = await import('@google-cloud/bigquery');
  const bigquery = new BigQuery(options as ConstructorParameters<typeof BigQuery>[0]);
  return new SdkClient(bigquery, bigquery.dataset(datasetId, { location: options.location }), options, jobs, logger);
}

/** How long the client waits past `jobTimeoutMs` before it gives up on a job and cancels it. */
const CLIENT_GRACE_MS = 60_000;
/** Pause between two `jobs.get` polls of a load job found by its id. */
const LOAD_POLL_MS = 1_000;

/** A job the client stopped waiting for: not transient, the run ends. */
class JobDeadlineError extends Error {}

class SdkClient implements BigqueryClient {
  readonly project: string;
  readonly dataset: string;
  readonly usage: BigqueryUsage = { jobs: 0, bytesProcessed: 0 };
  readonly #bigquery: BigQuery;
  readonly #dataset: Dataset;
  readonly #location: string;
  readonly #jobs: BigqueryJobSettings;
  readonly #logger: Logger;
  /** `aivis_<run id>_<token>`: job ids of this client start with it. */
  readonly #idPrefix: string;
  #sequence = 0;
  /** Query jobs whose bytes are in `usage`: a retry that reads a job's results again adds nothing. */
  readonly #billedJobs = new Set<string>();

  constructor(
    bigquery: BigQuery,
    dataset: Dataset,
    options: BigqueryClientOptions,
    jobs: BigqueryJobSettings,
    logger: Logger,
  ) {
    this.#bigquery = bigquery;
    this.#dataset = dataset;
    this.#location = options.location;
    this.#jobs = jobs;
    this.#logger = logger;
    this.project = options.projectId;
    this.dataset = dataset.id!;
    // The run names its jobs; the token keeps two clients of one run (or of none) apart.
    const run = jobs.runId === undefined ? '' : `${jobs.runId.replace(/[^A-Za-z0-9_-]/g, '_')}_`;
    this.#idPrefix = `aivis_${run}${randomBytes(4).toString('hex')}`;
  }

  /** Milliseconds after which the client stops waiting for a job. */
  get #deadlineMs(): number {
    return this.#jobs.jobTimeoutMs + CLIENT_GRACE_MS;
  }

  /**
   * Runs `attempt` with the job id of each attempt until it succeeds, fails for good, or
   * the retries are used up (`bigquery-retry.ts`). `exists` tells an attempt that BigQuery
   * already has a job of that id (running or done well): it waits for that job instead of
   * sending it again.
   */
  async #retrying<T>(what: string, attempt: (jobId: string, exists: boolean) => Promise<T>): Promise<T> {
    const base = `${this.#idPrefix}_${++this.#sequence}`;
    const started = this.#jobs.now().getTime();
    let n = 1;
    let counted: string | undefined;
    let exists = false;
    for (let retries = 0; ; retries++) {
      const jobId = `${base}_${n}`;
      if (jobId !== counted) this.usage.jobs += 1;
      counted = jobId;
      try {
        return await attempt(jobId, exists);
      } catch (error) {
        const reason = error instanceof JobDeadlineError ? undefined : transientReason(error);
        const spent = this.#jobs.now().getTime() - started;
        if (reason === undefined || retries + 1 >= MAX_ATTEMPTS || spent >= MAX_RETRY_MS) throw error;
        // A job that failed keeps its id: the next attempt needs a new one. One that runs or
        // ran well is waited for under its id; one that may not exist is sent again under
        // the same id (409 finds it if it does).
        const state = await this.#jobState(jobId);
        if (state === 'failed') n += 1;
        exists = state === 'exists';
        const delayMs = retryDelayMs(retries, this.#jobs.random);
        this.#logger.warn('BigQuery job failed with a transient error; retrying', {
          what,
          job: jobId,
          reason,
          retry: retries + 1,
          of: MAX_ATTEMPTS - 1,
          delay_ms: delayMs,
        });
        await this.#jobs.sleep(delayMs);
      }
    }
  }

  /**
   * What `jobs.get` says of the job: `failed` (DONE with an error, so its id is spent),
   * `exists` (pending, running or done well), or `unknown` (not found, or no answer).
   */
  async #jobState(jobId: string): Promise<'failed' | 'exists' | 'unknown'> {
    try {
      const [metadata] = await this.#bigquery.job(jobId, { location: this.#location }).getMetadata();
      if (metadata.status?.state === 'DONE' && metadata.status.errorResult) return 'failed';
      return metadata.status?.state ? 'exists' : 'unknown';
    } catch {
      return 'unknown';
    }
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
        ...(metadata.etag !== undefined ? { etag: String(metadata.etag) } : {}),
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
      // Another workspace's run of this version made the same view a moment ago.
      if (apiErrorCode(error) === 409) return;
      throw bigqueryError(`create view ${this.dataset}.${view}`, error, this.dataset);
    }
  }

  async patchTable(table: string, patch: TablePatch): Promise<void> {
    try {
      await this.#dataset.table(table).setMetadata({
        ...(patch.fields ? { schema: { fields: patch.fields.map((f) => ({ ...f })) } } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.viewQuery !== undefined ? { view: { query: patch.viewQuery, useLegacySql: false } } : {}),
        // The SDK sends a patch's etag as `If-Match`.
        ...(patch.etag !== undefined ? { etag: patch.etag } : {}),
      });
    } catch (error) {
      if (apiErrorCode(error) === 412)
        throw new TableChangedError(`${this.dataset}.${table} changed since it was read`);
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

  async load(table: string, lines: () => Iterable<string> | AsyncIterable<string>): Promise<void> {
    const what = `load into ${this.dataset}.${table}`;
    try {
      await this.#retrying(what, async (jobId, exists) => {
        // BigQuery has this load job (an earlier upload's answer was lost): wait for it
        // rather than send up to 50,000 rows again for a 409.
        if (exists) return this.#loadOutcome(jobId);
        // createWriteStream holds back 'finish' until the load job is DONE and destroys the
        // stream with the job's errorResult, so the pipeline settles with the job's outcome.
        // (Its metadata all goes under configuration.load: a load job carries no labels, its
        // id names the run.)
        const upload = this.#dataset.table(table, { location: this.#location }).createWriteStream({
          sourceFormat: 'NEWLINE_DELIMITED_JSON',
          writeDisposition: 'WRITE_APPEND',
          jobId,
        } as Parameters<ReturnType<Dataset['table']>['createWriteStream']>[0]);
        try {
          await pipeline(Readable.from(lines()), upload, { signal: AbortSignal.timeout(this.#deadlineMs) });
        } catch (error) {
          if ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError')
            throw await this.#deadlinePassed(this.#bigquery.job(jobId, { location: this.#location }));
          // An earlier upload of this attempt made the job though its answer was lost: wait for it.
          if (apiErrorCode(error) !== 409) throw error;
          await this.#loadOutcome(jobId);
        }
      });
    } catch (error) {
      throw bigqueryError(what, error, this.dataset);
    }
    this.#logger.debug('bigquery load job done', { table: `${this.dataset}.${table}` });
  }

  /** Waits for the load job `jobId` to finish; throws its error if it failed. */
  async #loadOutcome(jobId: string): Promise<void> {
    const job = this.#bigquery.job(jobId, { location: this.#location });
    const deadline = this.#jobs.now().getTime() + this.#deadlineMs;
    for (;;) {
      const [metadata] = await job.getMetadata();
      const status = metadata.status ?? {};
      if (status.state === 'DONE') {
        if (status.errorResult)
          throw Object.assign(new Error(status.errorResult.message ?? 'load job failed'), {
            errors: status.errors ?? [status.errorResult],
          });
        return;
      }
      if (this.#jobs.now().getTime() > deadline) throw await this.#deadlinePassed(job);
      await this.#jobs.sleep(LOAD_POLL_MS);
    }
  }

  /** Cancels a job the client stopped waiting for and says so. */
  async #deadlinePassed(job: Job): Promise<JobDeadlineError> {
    await job.cancel().catch(() => undefined);
    const seconds = Math.round(this.#jobs.jobTimeoutMs / 1000);
    return new JobDeadlineError(
      `job ${job.id} did not finish within destination.job_timeout_seconds (${seconds} s) and was cancelled`,
    );
  }

  /** The query job `jobId`: inserted now, or found when an earlier insert under that id went through. */
  async #queryJob(jobId: string, request: Query): Promise<Job> {
    try {
      const [job] = await this.#bigquery.createQueryJob({ ...request, jobId });
      return job;
    } catch (error) {
      if (apiErrorCode(error) !== 409) throw error;
      return this.#bigquery.job(jobId, { location: this.#location });
    }
  }

  async query(sql: string, params: Readonly<Record<string, QueryParam>> = {}): Promise<QueryOutcome> {
    const request: Query = { ...this.#queryRequest(sql), ...sdkParams(params, (v) => this.#bigquery.timestamp(v)) };
    const what = `query (${sql.split('\n')[0]!.slice(0, 80)})`;
    try {
      return await this.#retrying(what, async (jobId, exists) =>
        this.#results(
          exists ? this.#bigquery.job(jobId, { location: this.#location }) : await this.#queryJob(jobId, request),
        ),
      );
    } catch (error) {
      throw bigqueryError(what, error, this.dataset);
    }
  }

  async statementType(sql: string): Promise<string> {
    const what = `dry run (${sql.split('\n')[0]!.slice(0, 80)})`;
    try {
      const [job] = await this.#bigquery.createQueryJob({ ...this.#queryRequest(sql), dryRun: true });
      const statistics = job.metadata?.statistics as { query?: { statementType?: string } } | undefined;
      return statistics?.query?.statementType ?? 'UNKNOWN';
    } catch (error) {
      throw bigqueryError(what, error, this.dataset);
    }
  }

  async queryPages(sql: string, pageRows: number): Promise<QueryPages> {
    const what = `query (${sql.split('\n')[0]!.slice(0, 80)})`;
    const failed = (error: unknown) =>
      error instanceof DestinationError ? error : bigqueryError(what, error, this.dataset);
    try {
      const job = await this.#retrying(what, async (jobId, exists) =>
        exists
          ? this.#bigquery.job(jobId, { location: this.#location })
          : await this.#queryJob(jobId, this.#queryRequest(sql)),
      );
      const pages = this.#pages(job, pageRows);
      const first = await pages.next();
      const fields = first.done ? [] : first.value.fields;
      async function* rest(): AsyncGenerator<readonly RawRow[]> {
        try {
          if (!first.done) yield first.value.rows;
          for await (const page of pages) yield page.rows;
        } catch (error) {
          throw failed(error);
        }
      }
      return { fields, pages: rest() };
    } catch (error) {
      throw failed(error);
    }
  }

  /** A query job's request: its location, the run's labels and the job deadline. */
  #queryRequest(sql: string): Query {
    return {
      query: sql,
      location: this.#location,
      labels: { ...this.#jobs.labels },
      jobTimeoutMs: this.#jobs.jobTimeoutMs,
    };
  }

  /** Every page of the job's result, in order. */
  async #results(job: Job): Promise<QueryOutcome> {
    const rows: Record<string, CellValue>[] = [];
    let affectedRows = 0;
    for await (const page of this.#pages(job)) {
      for (const row of page.rows) rows.push(decodeRow(page.fields, row));
      affectedRows = page.affectedRows;
    }
    this.#logger.debug('bigquery query job done', { job: job.id, affectedRows });
    return { rows, affectedRows };
  }

  /**
   * The job's result a page at a time (`maxResults` rows, or BigQuery's page size), polling
   * while it runs, up to the client's deadline; its bytes are counted once.
   */
  async *#pages(job: Job, maxResults?: number): AsyncGenerator<ResultPage> {
    const deadline = this.#jobs.now().getTime() + this.#deadlineMs;
    const paging = { skipParsing: true, autoPaginate: false, ...(maxResults ? { maxResults } : {}) };
    let page: Record<string, unknown> | null = paging;
    let affectedRows: number | undefined;
    while (page) {
      const [raw, next, response] = (await job.getQueryResults(page)) as unknown as [
        RawRow[],
        Record<string, unknown> | null,
        QueryResponse,
      ];
      if (response.jobComplete === false && this.#jobs.now().getTime() > deadline)
        throw await this.#deadlinePassed(job);
      // Every page of a finished job repeats its statistics: count them once.
      if (response.jobComplete !== false && affectedRows === undefined) {
        affectedRows = Number(response.numDmlAffectedRows ?? 0);
        // A retry that reads this job's results again (a page fetch failed) bills nothing more.
        if (!this.#billedJobs.has(job.id!)) {
          this.#billedJobs.add(job.id!);
          this.usage.bytesProcessed += Number(response.totalBytesProcessed ?? 0);
        }
      }
      if (response.jobComplete !== false)
        yield { fields: response.schema?.fields ?? [], rows: raw ?? [], affectedRows: affectedRows ?? 0 };
      page = next ? { ...next, ...paging } : null;
    }
  }
}

/** One page of a query's result as BigQuery sends it. */
interface ResultPage {
  readonly fields: readonly ResultField[];
  readonly rows: readonly RawRow[];
  readonly affectedRows: number;
}

/** A result row as the REST API sends it: `{f: [{v}]}`, every scalar a string. */
export interface RawRow {
  f: { v: unknown }[];
}

/** A field of a result's schema; a RECORD has its own `fields`, a REPEATED one holds an array. */
export interface ResultField {
  readonly name: string;
  readonly type: string;
  readonly mode?: string;
  readonly fields?: readonly ResultField[];
}

/** A query's result read a page at a time (`BigqueryClient.queryPages`). */
export interface QueryPages {
  readonly fields: readonly ResultField[];
  readonly pages: AsyncIterable<readonly RawRow[]>;
}

interface QueryResponse {
  jobComplete?: boolean;
  schema?: { fields?: ResultField[] };
  numDmlAffectedRows?: string;
  totalBytesProcessed?: string;
}

function decodeRow(fields: readonly ResultField[], row: RawRow): Record<string, CellValue> {
  const out: Record<string, CellValue> = {};
  fields.forEach((field, i) => {
    out[field.name] = decodeCell(field.type, row.f[i]?.v);
  });
  return out;
}

/**
 * Named parameters in the SDK's `params` + `types` form (types are required for NULLs). A
 * TIMESTAMP goes as the SDK's timestamp object (given a plain string with type TIMESTAMP, the
 * SDK (9.3) sends an empty value) holding our six-digit text: the SDK's own text of a stamp
 * with microseconds has nine digits, which BigQuery refuses (googleapis/nodejs-bigquery#1289).
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
          ? Object.assign(timestamp(param.value) as object, { value: microsecondTimestamp(param.value) })
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

/** The HTTP status of an SDK error (a network error's string code is not one). */
export function apiErrorCode(error: unknown): number | undefined {
  const code = (error as ErrorLike | null)?.code;
  return typeof code === 'number' ? code : undefined;
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
  const message = (error as ErrorLike | null)?.message ?? '';
  for (const pattern of PERMISSION_MESSAGES) {
    const match = pattern.exec(message);
    if (match) return { permission: match[1]!, resource: match[2]! };
  }
  return undefined;
}

/** The missing permission, where it is missing and the role that grants it: `bigquery.tables.create on dataset aivis: grant roles/bigquery.dataEditor`. */
export function permissionAdvice(missing: { permission: string; resource: string }, dataset: string): string {
  const fix = ROLE_FOR_PERMISSION[missing.permission] ?? 'grant roles/bigquery.dataEditor and roles/bigquery.jobUser';
  const where = missing.permission === 'bigquery.jobs.create' ? `project ${missing.resource}` : `dataset ${dataset}`;
  return `${missing.permission} on ${where}: ${fix}`;
}

/**
 * `what` names the operation (`load into aivis.mentions`); the BigQuery message follows, and
 * for a permission error the fix: `bigquery.tables.create on dataset aivis: grant roles/bigquery.dataEditor`.
 */
export function bigqueryError(what: string, error: unknown, dataset: string): DestinationError {
  const missing = missingPermission(error);
  if (missing) {
    return new DestinationError(
      `BigQuery ${what}: permission denied: ${permissionAdvice(missing, dataset)}`,
      ExitCode.Failure,
      { cause: error },
    );
  }
  const e = (error ?? {}) as ErrorLike;
  const reason = e.errors?.[0]?.reason;
  const message = e.message ?? String(error);
  return new DestinationError(`BigQuery ${what} failed: ${message}${reason ? ` (${reason})` : ''}`, ExitCode.Failure, {
    cause: error,
  });
}
