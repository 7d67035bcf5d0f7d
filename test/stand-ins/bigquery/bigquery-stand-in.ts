/**
 * A local stand-in of the BigQuery REST API (v2) for the real `@google-cloud/bigquery`
 * client: `new BigQuery({ projectId, apiEndpoint: standIn.url, authClient: fakeAuthClient() })`.
 * It serves the subset the connector uses (datasets get/insert; tables get/insert/patch/
 * delete; multipart load jobs; query jobs, job polling and query results) over 127.0.0.1, and
 * runs the SQL on DuckDB (`stand-in-engine.ts`). A job does its work when it is inserted; unless
 * `faults.runningPolls` says otherwise it is DONE by the time its insert returns.
 *
 * Faults (`faults`, settable at start or at any time; docs/architecture.md#warehouse-faults):
 * query jobs that answer RUNNING for N polls, results in pages, every n-th query job ending
 * in `backendError` (or another reason), every n-th upload answered 503, reset before the job
 * exists, or reset after it ran (the response lost), the same for `jobs.insert`, the fetch of
 * a later page of results failing, and DML reruns (`dmlReruns`, BigQuery's 3) down to 0. A
 * job whose location is not its dataset's is refused as BigQuery refuses it, and so are job
 * ids and labels BigQuery would not take.
 *
 * Test hooks: `deny(permission)` answers 403 as BigQuery words it; `jobs` records every job;
 * `hold(matches)` stops the next matching query job between its work and its commit (its
 * snapshot taken, its changes made but not visible) until the test releases it, and
 * `conflict(matches)` tells when a matching mutation has lost a conflict, so tests can
 * interleave jobs exactly as BigQuery may.
 *
 * It also answers `POST /token` like Google's STS token exchange, so a process that only has
 * Application Default Credentials (`GOOGLE_APPLICATION_CREDENTIALS` naming an
 * `external_account` file whose `token_url` is `${url}/token`) gets a token over loopback:
 * that is how CLI tests run the product's own credential path. `tokenExchanges` counts them.
 */
import { createHash, randomUUID } from 'node:crypto';
import { serialByKey } from '../../../src/destination/serial-by-key.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BigqueryFault,
  accessDenied,
  duplicate,
  invalidJobRequest,
  notFound,
  preconditionFailed,
  transientFault,
  wrongLocation,
  type ErrorProto,
  type TransientReason,
} from './stand-in-errors.ts';
import { StandInEngine, type EngineOptions, type QueryResult } from './stand-in-engine.ts';
import type { TableResource } from './stand-in-resources.ts';
import type { RestQueryParameter } from './stand-in-sql.ts';

/** A table's etag: changes whenever its schema, description or view does (`tables.get`, `If-Match`). */
function tableEtag(resource: TableResource): string {
  const { schema, description, view } = resource;
  return createHash('sha256').update(JSON.stringify({ schema, description, view })).digest('base64').slice(0, 16);
}

export interface StandInJob {
  jobReference: { projectId: string; jobId: string; location: string };
  configuration: {
    load?: { destinationTable: { datasetId: string; tableId: string } };
    query?: { query: string; queryParameters?: RestQueryParameter[] };
    labels?: Record<string, string>;
    jobTimeoutMs?: string;
  };
  status: { state: 'RUNNING' | 'DONE'; errorResult?: ErrorProto; errors?: ErrorProto[] };
  statistics: Record<string, unknown>;
  result?: QueryResult;
  fault?: BigqueryFault;
  /** Polls still to be answered RUNNING (`faults.runningPolls` when the job was inserted). */
  pollsLeft?: number;
}

/** How a request fails on the wire: a 503 before anything happened, or a reset before or after the job ran. */
export type WireFault = 'unavailable' | 'reset' | 'lostResponse';

/** Hits the n-th, 2n-th, ... matching request (counted from the stand-in's start), at most `times` times. */
interface Fault {
  readonly every: number;
  readonly times?: number;
}

/** Faults as BigQuery shows them. */
export interface BigqueryFaults {
  /** Polls (`jobs.get`, `jobs.getQueryResults`) a query job answers RUNNING before DONE; Infinity never ends it. */
  runningPolls?: number;
  /** Rows per page of query results; the rest follow by `pageToken`. */
  pageRows?: number;
  /** Every n-th query job ends DONE with this error (before it changed anything). */
  jobFailures?: Fault & { readonly reason: TransientReason };
  /** Every n-th multipart upload (`/upload/.../jobs`) fails on the wire. */
  uploadFailures?: Fault & { readonly kind: WireFault };
  /** Every n-th `jobs.insert` of a query job fails on the wire. */
  insertFailures?: Fault & { readonly kind: WireFault };
  /**
   * Every n-th fetch of a later page of query results (after the job ran and its first page
   * was read) answers this error; `jobRateLimitExceeded` (HTTP 400) reaches aivis, as the SDK
   * resends 5xx and `rateLimitExceeded` itself.
   */
  pageFailures?: Fault & { readonly reason: TransientReason };
}

/** What `route` answers when the connection is to be reset instead of answered. */
const RESET = Symbol('reset');

/** A job stopped before its commit: `reached` once it is there, `release()` to let it commit. */
export interface JobHold {
  readonly reached: Promise<StandInJob>;
  release(): void;
}

export interface BigqueryStandIn {
  readonly url: string;
  readonly projectId: string;
  readonly engine: StandInEngine;
  /** Every job in the order it was inserted. */
  readonly jobs: readonly StandInJob[];
  /** The faults in force; setting them starts their counts (and `injected`) afresh. */
  faults: BigqueryFaults;
  /** Runs `work` (a test's own statements) with every fault off; counts are kept. */
  withoutFaults<T>(work: () => Promise<T>): Promise<T>;
  /** Faults injected so far, by kind (`backendError`, `upload:reset`, ...). */
  readonly injected: Readonly<Record<string, number>>;
  /** Token exchanges served on `POST /token`. */
  readonly tokenExchanges: number;
  /** Multipart uploads (each carrying its rows) received since `faults` was last set. */
  readonly uploads: number;
  /** Called when a job has finished, before its insert is answered (e.g. to kill a client right there). */
  onJobDone: ((job: StandInJob) => void) | undefined;
  /** Stops the next query job `matches` accepts before its commit, until released. */
  hold(matches: (job: StandInJob) => boolean): JobHold;
  /** Resolves when the next mutation `matches` accepts loses a conflict (and waits for the winner). */
  conflict(matches: (job: StandInJob) => boolean): Promise<StandInJob>;
  /** Answers 403 for operations that need `permission` (e.g. `bigquery.tables.create`). */
  deny(permission: string): void;
  allowAll(): void;
  close(): Promise<void>;
}

export async function startBigqueryStandIn(
  options: { projectId?: string; faults?: BigqueryFaults } & EngineOptions = {},
): Promise<BigqueryStandIn> {
  const projectId = options.projectId ?? 'aivis-test';
  const engine = await StandInEngine.create(projectId, options);
  let faults: BigqueryFaults = options.faults ?? {};
  let paused = 0;
  /** The faults in force now: none while a test's own statements run (`withoutFaults`). */
  const active = (): BigqueryFaults => (paused > 0 ? {} : faults);
  const injected: Record<string, number> = {};
  const seen = { jobs: 0, uploads: 0, inserts: 0, pages: 0 };
  /** Whether the `count`-th request hits `fault`, counted in `injected` under `name`. */
  const hits = (fault: Fault | undefined, count: number, name: () => string): boolean => {
    if (!fault || count % fault.every !== 0) return false;
    if (fault.times !== undefined && (injected[name()] ?? 0) >= fault.times) return false;
    injected[name()] = (injected[name()] ?? 0) + 1;
    return true;
  };
  const denied = new Set<string>();
  const jobs: StandInJob[] = [];
  const byId = new Map<string, StandInJob>();
  const hooks: { onJobDone: ((job: StandInJob) => void) | undefined } = { onJobDone: undefined };
  let tokenExchanges = 0;
  const holds: { matches: (job: StandInJob) => boolean; reach: (job: StandInJob) => void; released: Promise<void> }[] =
    [];

  const hold = (matches: (job: StandInJob) => boolean): JobHold => {
    let reach!: (job: StandInJob) => void;
    let release!: () => void;
    const reached = new Promise<StandInJob>((resolve) => (reach = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    holds.push({ matches, reach, released });
    return { reached, release };
  };

  const conflictWatches: { matches: (job: StandInJob) => boolean; notify: (job: StandInJob) => void }[] = [];
  const conflict = (matches: (job: StandInJob) => boolean) =>
    new Promise<StandInJob>((notify) => conflictWatches.push({ matches, notify }));
  const lostConflict = (job: StandInJob) => {
    const index = conflictWatches.findIndex((w) => w.matches(job));
    if (index >= 0) conflictWatches.splice(index, 1)[0]!.notify(job);
  };

  /** Each hold stops one job, the first it matches. */
  const pauseIfHeld = async (job: StandInJob) => {
    const index = holds.findIndex((h) => h.matches(job));
    if (index < 0) return;
    const [held] = holds.splice(index, 1);
    held!.reach(job);
    await held!.released;
  };

  const requirePermission = (permission: string, dataset = '') => {
    if (denied.has(permission)) throw accessDenied(permission, projectId, dataset);
  };

  const insertJob = (body: Partial<StandInJob>, location: string): StandInJob => {
    const refused = invalidJobRequest(body.jobReference?.jobId, body.configuration?.labels);
    if (refused) throw refused;
    const jobId = body.jobReference?.jobId ?? randomUUID();
    if (byId.has(jobId)) throw duplicate(`Job ${projectId}:${location}.${jobId}`);
    const job: StandInJob = {
      jobReference: { projectId, jobId, location: body.jobReference?.location ?? location },
      configuration: body.configuration ?? {},
      status: { state: 'DONE' },
      statistics: { creationTime: String(Date.now()) },
    };
    if (job.configuration.query && (active().runningPolls ?? 0) > 0) {
      job.pollsLeft = active().runningPolls;
      job.status = { state: 'RUNNING' };
    }
    byId.set(jobId, job);
    jobs.push(job);
    return job;
  };

  /**
   * `jobs.insert` with `dryRun`: BigQuery checks the query and answers a DONE job with its
   * statement type and the bytes it would bill; no job is created (none to get or list), nothing runs.
   */
  const dryRunJob = async (body: Partial<StandInJob>) => {
    const query = body.configuration?.query;
    if (!query) throw new BigqueryFault(400, 'invalid', 'The stand-in dry-runs query jobs only');
    const location = body.jobReference?.location ?? 'US';
    checkLocation({ jobReference: { projectId, jobId: '', location } } as StandInJob, referencedDatasets(query.query));
    const statementType = await engine.dryRun(query.query);
    return {
      kind: 'bigquery#job',
      jobReference: { projectId, location },
      configuration: { ...body.configuration, dryRun: true },
      status: { state: 'DONE' },
      statistics: {
        creationTime: String(Date.now()),
        totalBytesProcessed: '0',
        query: { totalBytesProcessed: '0', statementType },
      },
    };
  };

  const fail = (job: StandInJob, fault: BigqueryFault) => {
    job.fault = fault;
    job.status = { ...job.status, errorResult: fault.proto, errors: [fault.proto] };
  };

  /** The job's state as a poll sees it: RUNNING while it has polls left, then DONE. */
  const poll = (job: StandInJob) => {
    if ((job.pollsLeft ?? 0) > 0) job.pollsLeft! -= 1;
    else job.status = { ...job.status, state: 'DONE' };
  };

  /** BigQuery runs a job in its `jobReference.location`: a dataset elsewhere is "not found" there. */
  const checkLocation = (job: StandInJob, datasets: readonly string[]) => {
    for (const dataset of datasets) {
      const location = engine.datasets.get(dataset)?.location;
      if (location !== undefined && location.toUpperCase() !== job.jobReference.location.toUpperCase())
        throw wrongLocation(projectId, dataset, job.jobReference.location);
    }
  };

  const runQueryJob = async (job: StandInJob) => {
    const query = job.configuration.query!;
    try {
      checkLocation(job, referencedDatasets(query.query));
      if (hits(active().jobFailures, ++seen.jobs, () => active().jobFailures!.reason)) {
        // It fails at once: its insert answers DONE with the error (the SDK would retry a
        // 5xx getQueryResults with seconds of real backoff before aivis saw it).
        job.pollsLeft = 0;
        job.status = { state: 'DONE' };
        throw transientFault(active().jobFailures!.reason);
      }
      if (/^\s*(MERGE|INSERT|UPDATE|DELETE)\b/i.test(query.query)) {
        for (const ref of referencedDatasets(query.query)) requirePermission('bigquery.tables.updateData', ref);
      }
      // Reading a table's rows (a SELECT, a MERGE's source, a DML's WHERE) takes getData; an INSERT of values does not.
      if (!/^\s*INSERT\b(?![\s\S]*\bSELECT\b)/i.test(query.query)) {
        for (const ref of referencedDatasets(query.query)) requirePermission('bigquery.tables.getData', ref);
      }
      const result = await engine.query(query.query, query.queryParameters ?? [], {
        beforeCommit: () => pauseIfHeld(job),
        onConflict: () => lostConflict(job),
      });
      job.result = result;
      const dml = result.affectedRows !== undefined ? { numDmlAffectedRows: String(result.affectedRows) } : {};
      job.statistics = {
        ...job.statistics,
        totalBytesProcessed: String(result.bytesProcessed),
        query: { totalBytesProcessed: String(result.bytesProcessed), ...dml },
      };
    } catch (error) {
      // A bug of the stand-in itself surfaces as the job's error, not as a 500 the client retries.
      fail(
        job,
        error instanceof BigqueryFault
          ? error
          : new BigqueryFault(500, 'internalError', String((error as Error)?.stack ?? error)),
      );
    }
  };

  const queryResponse = (job: StandInJob, pageToken: string | null) => {
    poll(job);
    if (job.status.state !== 'DONE')
      return { kind: 'bigquery#getQueryResultsResponse', jobReference: job.jobReference, jobComplete: false };
    if (job.fault) throw job.fault;
    const result = job.result!;
    const from = Number(pageToken ?? 0);
    const pageRows = active().pageRows;
    const to = pageRows ? from + pageRows : result.rows.length;
    return {
      kind: 'bigquery#getQueryResultsResponse',
      jobReference: job.jobReference,
      jobComplete: true,
      schema: result.schema,
      rows: result.rows.slice(from, to),
      ...(to < result.rows.length ? { pageToken: String(to) } : {}),
      totalRows: String(result.rows.length),
      totalBytesProcessed: String(result.bytesProcessed),
      ...(result.affectedRows !== undefined ? { numDmlAffectedRows: String(result.affectedRows) } : {}),
      cacheHit: false,
    };
  };

  /** The job as `jobs.get` shows it: no error until it is DONE. */
  const jobResource = (job: StandInJob) => ({
    kind: 'bigquery#job',
    id: `${projectId}:${job.jobReference.location}.${job.jobReference.jobId}`,
    ...job,
    status: job.status.state === 'DONE' ? job.status : { state: job.status.state },
    result: undefined,
    fault: undefined,
    pollsLeft: undefined,
  });

  const datasetResource = (dataset: string) => ({
    kind: 'bigquery#dataset',
    id: `${projectId}:${dataset}`,
    datasetReference: { projectId, datasetId: dataset },
    location: engine.dataset(dataset).location,
  });

  const onePatchAtATime = serialByKey();
  const tableResource = (resource: TableResource) => ({
    kind: 'bigquery#table',
    id: `${projectId}:${resource.tableReference.datasetId}.${resource.tableReference.tableId}`,
    ...resource,
    type: resource.type ?? 'TABLE',
    etag: tableEtag(resource),
  });

  async function route(
    method: string,
    url: URL,
    headers: http.IncomingHttpHeaders,
    body: Buffer,
  ): Promise<[number, unknown] | typeof RESET> {
    const upload = /^\/upload\/bigquery\/v2\/projects\/([^/]+)\/jobs$/.exec(url.pathname);
    if (upload && method === 'POST') {
      checkProject(upload[1]!);
      requirePermission('bigquery.jobs.create');
      const wire = hits(active().uploadFailures, ++seen.uploads, () => `upload:${active().uploadFailures!.kind}`)
        ? active().uploadFailures!.kind
        : undefined;
      if (wire === 'unavailable') throw transientFault('unavailable');
      if (wire === 'reset') return RESET;
      const { metadata, data } = parseMultipart(headers['content-type'] ?? '', body);
      const load = (metadata as Partial<StandInJob>).configuration?.load;
      const dataset = load?.destinationTable.datasetId ?? '';
      const job = insertJob(metadata as Partial<StandInJob>, engine.datasets.get(dataset)?.location ?? 'US');
      try {
        checkLocation(job, [dataset]);
        requirePermission('bigquery.tables.updateData', dataset);
        const rows = await engine.load(dataset, load?.destinationTable.tableId ?? '', data);
        job.statistics = { ...job.statistics, load: { outputRows: String(rows), inputFileBytes: String(data.length) } };
      } catch (error) {
        if (!(error instanceof BigqueryFault)) throw error;
        fail(job, error);
      }
      hooks.onJobDone?.(job);
      return wire === 'lostResponse' ? RESET : [200, job];
    }
    const m = /^\/bigquery\/v2\/projects\/([^/]+)(\/.*)$/.exec(url.pathname);
    if (!m) throw notFound(`URL ${url.pathname}`);
    checkProject(m[1]!);
    const rest = m[2]!;
    const json = body.length ? (JSON.parse(body.toString('utf8')) as Record<string, any>) : {};
    let p: RegExpExecArray | null;
    if (method === 'POST' && rest === '/datasets') {
      requirePermission('bigquery.datasets.create');
      const dataset = json.datasetReference?.datasetId as string;
      await engine.createDataset(dataset, (json.location as string | undefined) ?? 'US');
      return [200, datasetResource(dataset)];
    }
    if ((p = /^\/datasets\/(\w+)$/.exec(rest)) && method === 'GET') {
      requirePermission('bigquery.datasets.get', p[1]!);
      return [200, datasetResource(p[1]!)];
    }
    if ((p = /^\/datasets\/(\w+)$/.exec(rest)) && method === 'DELETE') {
      requirePermission('bigquery.datasets.delete', p[1]!);
      await engine.deleteDataset(p[1]!, url.searchParams.get('deleteContents') === 'true');
      return [204, undefined];
    }
    if ((p = /^\/datasets\/(\w+)\/tables$/.exec(rest)) && method === 'GET') {
      // tables.list: references and types only, as BigQuery lists them (no schema, no description).
      requirePermission('bigquery.tables.list', p[1]!);
      engine.dataset(p[1]!);
      const tables = [...engine.tables.values()]
        .filter((t) => t.tableReference.datasetId === p![1])
        .map((t) => ({
          kind: 'bigquery#table',
          id: `${projectId}:${p![1]}.${t.tableReference.tableId}`,
          tableReference: t.tableReference,
          type: t.type ?? 'TABLE',
        }));
      return [200, { kind: 'bigquery#tableList', tables, totalItems: tables.length }];
    }
    if ((p = /^\/datasets\/(\w+)\/tables$/.exec(rest)) && method === 'POST') {
      requirePermission('bigquery.tables.create', p[1]!);
      const resource = json as TableResource;
      resource.tableReference = {
        projectId,
        datasetId: p[1]!,
        tableId: resource.tableReference?.tableId ?? (json.id as string),
      };
      return [200, tableResource(await engine.createTable(p[1]!, resource))];
    }
    if ((p = /^\/datasets\/(\w+)\/tables\/(\w+)$/.exec(rest))) {
      const [, dataset, table] = p as unknown as [string, string, string];
      if (method === 'GET') {
        requirePermission('bigquery.tables.get', dataset);
        return [200, tableResource(engine.table(dataset, table))];
      }
      if (method === 'PATCH' || method === 'PUT') {
        requirePermission('bigquery.tables.update', dataset);
        // Like BigQuery, a patch sent with `If-Match` applies only to the version it names; one
        // table's patches apply one at a time, so two that name one version cannot both.
        const ifMatch = headers['if-match'];
        return onePatchAtATime(`${dataset}.${table}`, async () => {
          if (ifMatch !== undefined && ifMatch !== tableEtag(engine.table(dataset, table))) throw preconditionFailed();
          return [200, tableResource(await engine.patchTable(dataset, table, json as Partial<TableResource>))] as [
            number,
            unknown,
          ];
        });
      }
      if (method === 'DELETE') {
        requirePermission('bigquery.tables.delete', dataset);
        await engine.deleteTable(dataset, table);
        return [204, undefined];
      }
    }
    if (method === 'POST' && rest === '/jobs') {
      requirePermission('bigquery.jobs.create');
      const wire = hits(active().insertFailures, ++seen.inserts, () => `insert:${active().insertFailures!.kind}`)
        ? active().insertFailures!.kind
        : undefined;
      if (wire === 'unavailable') throw transientFault('unavailable');
      if (wire === 'reset') return RESET;
      const dryRun = (json.configuration as { dryRun?: boolean } | undefined)?.dryRun === true;
      if (dryRun) return [200, await dryRunJob(json as Partial<StandInJob>)];
      const job = insertJob(json as Partial<StandInJob>, 'US');
      if (!job.configuration.query)
        throw new BigqueryFault(400, 'invalid', 'The stand-in runs query jobs and multipart load jobs only');
      await runQueryJob(job);
      hooks.onJobDone?.(job);
      return wire === 'lostResponse' ? RESET : [200, jobResource(job)];
    }
    if (method === 'GET' && rest === '/jobs') {
      // jobs.list: newest first, from minCreationTime on; the full projection carries each
      // job's configuration (labels, jobTimeoutMs). One page: the stand-in's jobs are few.
      const since = Number(url.searchParams.get('minCreationTime') ?? 0);
      const full = url.searchParams.get('projection') === 'full';
      const listed = jobs
        .filter((job) => Number(job.statistics.creationTime) >= since)
        .reverse()
        .map((job) => {
          const { configuration, ...resource } = jobResource(job);
          return { ...resource, state: job.status.state, ...(full ? { configuration } : {}) };
        });
      return [200, { kind: 'bigquery#jobList', jobs: listed }];
    }
    if ((p = /^\/jobs\/([\w-]+)\/cancel$/.exec(rest)) && method === 'POST') {
      const job = byId.get(p[1]!);
      if (!job) throw notFound(`Job ${projectId}:${p[1]}`);
      if (job.status.state !== 'DONE') {
        job.pollsLeft = 0;
        fail(job, new BigqueryFault(400, 'stopped', 'Job execution was cancelled: User requested cancellation'));
        job.status.state = 'DONE';
      }
      return [200, { kind: 'bigquery#jobCancelResponse', job: jobResource(job) }];
    }
    if (method === 'POST' && rest === '/queries') {
      requirePermission('bigquery.jobs.create');
      const job = insertJob(
        {
          configuration: {
            query: { query: json.query as string, queryParameters: json.queryParameters as RestQueryParameter[] },
          },
        },
        (json.location as string | undefined) ?? 'US',
      );
      await runQueryJob(job);
      return [200, queryResponse(job, null)];
    }
    if ((p = /^\/jobs\/([\w-]+)$/.exec(rest)) && method === 'GET') {
      const job = byId.get(p[1]!);
      if (!job) throw notFound(`Job ${projectId}:${p[1]}`);
      poll(job);
      return [200, jobResource(job)];
    }
    if ((p = /^\/queries\/([\w-]+)$/.exec(rest)) && method === 'GET') {
      const job = byId.get(p[1]!);
      if (!job) throw notFound(`Job ${projectId}:${p[1]}`);
      const pageToken = url.searchParams.get('pageToken');
      if (pageToken !== null && hits(active().pageFailures, ++seen.pages, () => active().pageFailures!.reason))
        throw transientFault(active().pageFailures!.reason);
      return [200, queryResponse(job, pageToken)];
    }
    throw notFound(`${method} ${url.pathname}`);
  }

  function checkProject(project: string): void {
    if (project !== projectId) throw notFound(`Project ${project}`);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(
          payload === undefined ? '' : JSON.stringify(payload, (_k, v: unknown) => (v === undefined ? undefined : v)),
        );
      };
      if (req.method === 'POST' && req.url === '/token') {
        tokenExchanges++;
        send(200, {
          access_token: `stand-in-sts-${tokenExchanges}`,
          issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          token_type: 'Bearer',
          expires_in: 3600,
        });
        return;
      }
      if (!/^Bearer \S+/.test(req.headers.authorization ?? '')) {
        send(401, {
          error: {
            code: 401,
            message: 'Request is missing required authentication credential. Expected OAuth 2 access token.',
            errors: [{ reason: 'required', message: 'Login Required.', domain: 'global' }],
            status: 'UNAUTHENTICATED',
          },
        });
        return;
      }
      route(req.method ?? 'GET', new URL(req.url ?? '/', 'http://127.0.0.1'), req.headers, Buffer.concat(chunks))
        .then((answer) => (answer === RESET ? req.socket.destroy() : send(...answer)))
        .catch((error: unknown) => {
          if (error instanceof BigqueryFault) send(error.httpStatus, error.body);
          else
            send(500, {
              error: {
                code: 500,
                message: String((error as Error)?.stack ?? error),
                errors: [{ reason: 'internalError', message: String(error) }],
                status: 'INTERNAL',
              },
            });
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    projectId,
    engine,
    jobs,
    get faults() {
      return faults;
    },
    set faults(next) {
      faults = next;
      Object.assign(seen, { jobs: 0, uploads: 0, inserts: 0, pages: 0 });
      for (const key of Object.keys(injected)) delete injected[key];
    },
    injected,
    async withoutFaults(work) {
      paused += 1;
      try {
        return await work();
      } finally {
        paused -= 1;
      }
    },
    get tokenExchanges() {
      return tokenExchanges;
    },
    get uploads() {
      return seen.uploads;
    },
    get onJobDone() {
      return hooks.onJobDone;
    },
    set onJobDone(hook) {
      hooks.onJobDone = hook;
    },
    hold,
    conflict,
    deny: (permission) => void denied.add(permission),
    allowAll: () => denied.clear(),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      engine.close();
    },
  };
}

function referencedDatasets(sql: string): string[] {
  return [...new Set([...sql.matchAll(/`[\w-]+\.(\w+)\.\w+`/g)].map((m) => m[1]!))];
}

/** `multipart/related`: part 1 the job resource (JSON), part 2 the data. */
function parseMultipart(contentType: string, body: Buffer): { metadata: unknown; data: Buffer } {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new BigqueryFault(400, 'invalid', 'Load jobs must be multipart/related uploads');
  const text = body.toString('latin1');
  const parts = text
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const start = part.indexOf('\r\n\r\n');
      return Buffer.from(part.slice(start + 4).replace(/\r\n$/, ''), 'latin1');
    });
  if (parts.length < 2)
    throw new BigqueryFault(400, 'invalid', 'A multipart load needs a metadata part and a data part');
  return { metadata: JSON.parse(parts[0]!.toString('utf8')), data: parts[1]! };
}
