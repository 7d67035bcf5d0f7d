/**
 * The V2 API client: small layers around undici, outermost first
 *   retry -> limiter -> logging -> JSON body -> timeout -> bearer auth -> undici transport
 * so every attempt (retries included) takes a slot of the workspace's budget, gets its own
 * deadline and its own log line, and a 429 pauses the whole limiter. A request spends at most
 * its retry budget; a workspace whose requests keep failing stops asking (failure-streak.ts).
 */
import type { z } from 'zod';
import { DEFAULT_RETRY_BUDGET_SECONDS } from '../../schemas/config.ts';
import { dataEnvelope, formatIssues, listEnvelopeSchema, requestMetaSchema } from '../../schemas/index.ts';
import { pageLimitSchema } from '../../schemas/query.ts';
import { envelopeDuplicateKey } from '../json/duplicate-keys.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import {
  apiErrorFromNetwork,
  apiErrorFromResponse,
  apiErrorFromTooLarge,
  apiErrorFromUnreadable,
  invalidResponse,
} from './api-failure.ts';
import { withBearerAuth } from './auth-layer.ts';
import { parseBaseUrl } from './base-url.ts';
import { ResponseTooLargeError } from './capped-body.ts';
import { createClientStats, type ClientStats } from './client-stats.ts';
import { systemClock, type Clock } from './clock.ts';
import type { HttpRequest, HttpResponse, Send } from './http-exchange.ts';
import { withJsonBody } from './json-body.ts';
import { withLimiter } from './limiter-layer.ts';
import { withLogging } from './logging-layer.ts';
import { NetworkError } from './network-error.ts';
import { paginate, type ListPage, type Page, type PaginateOptions } from './paginator.ts';
import { RateLimiter } from './rate-limiter.ts';
import { withRetry } from './retry-layer.ts';
import { RetryPolicy } from './retry-policy.ts';
import { withTimeout } from './timeout-layer.ts';
import { createUndiciTransport, type UndiciTransport } from './undici-transport.ts';
import { FailureStreak } from './failure-streak.ts';
import { UnreadableSuccessError } from './unreadable-success.ts';

export type { ClientStats } from './client-stats.ts';
export type { Page, PaginateOptions } from './paginator.ts';
export type { RecordResult } from './record-result.ts';

/**
 * How to reach the API and how patiently.
 * @example new ApiClient({ baseUrl: 'https://api.example.com', apiKey, limiter: workspaceLimiter, logger })
 */
export interface ApiClientOptions {
  /** API origin, e.g. `https://api.example.com`; request paths start with `/public/v2/`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; registered as a secret, so it is masked in every log line and error. */
  apiKey: string;
  /** Budget of the limiter created when `limiter` is absent; default `DEFAULT_REQUESTS_PER_MINUTE`. */
  requestsPerMinute?: number;
  /** Deadline of one attempt, headers and body together; default 60_000. */
  timeoutMs?: number;
  /** Retries after the first attempt of a request; default 6. */
  maxRetries?: number;
  /**
   * The most one request may spend, from its first attempt: attempts and waits between them
   * (`Retry-After` included), time queued for the rate budget not counted. A longer
   * `Retry-After` fails the request at once. Default `DEFAULT_RETRY_BUDGET_SECONDS` (the config's default).
   */
  retryBudgetMs?: number;
  /** Largest response body read; a larger one fails its request, unretried. Default 64 MiB. */
  maxResponseBytes?: number;
  /** Share one per workspace (reads, polls and imports of one run); created when absent. */
  limiter?: RateLimiter;
  logger?: Logger;
  /** Jitter source, uniform in [0, 1); tests inject one. */
  random?: () => number;
  /** Time source for waits, backoff and deadlines; default the process clock. */
  clock?: Clock;
  /**
   * Stops the client (SIGTERM): the request in flight, a retry's backoff and a wait for the
   * rate budget all end at once, rejecting with `signal.reason`; later requests reject at once.
   */
  signal?: AbortSignal;
}

/** What `request` gives back for a 2xx answer (anything else throws an ApiError). */
export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, integers beyond 2^53 exact (a success without one fails instead). */
  body: unknown;
  /** The body as text, as served (the served contract's digest is taken of it). */
  text?: string;
  requestId: string | undefined;
}

/** One request of `ApiClient.request`: the importer's POSTs and receipt polls. */
export interface RequestOptions {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  /** Sent byte for byte on every attempt. */
  body?: Uint8Array;
  /** `never`: a single attempt (a 429 still pauses the limiter). Default: the retry policy. */
  retry?: 'default' | 'never';
}

export class ApiClient {
  /** Live counters; the progress display reads them while a run goes on. */
  readonly stats: ClientStats = createClientStats();
  readonly #transport: UndiciTransport;
  /** The stop signal the client was built with: callers that wait between requests (receipt polls) wait on it too. */
  readonly signal: AbortSignal | undefined;
  readonly #send: Send;
  readonly #streak = new FailureStreak();
  /** The stop signal and the streak's: what every request and wait of this client listens to. */
  readonly #requestSignal: AbortSignal;

  constructor(options: ApiClientOptions) {
    const baseUrl = parseBaseUrl(options.baseUrl);
    const clock = options.clock ?? systemClock;
    const logger = options.logger ?? silentLogger;
    const limiter = options.limiter ?? new RateLimiter({ requestsPerMinute: options.requestsPerMinute, clock });
    const policy = new RetryPolicy({ maxRetries: options.maxRetries, random: options.random });
    const transport = createUndiciTransport(baseUrl, options.maxResponseBytes);
    const authed = withBearerAuth(transport.send, options.apiKey);
    const timed = withTimeout(authed, options.timeoutMs ?? 60_000, clock);
    const limited = withLimiter(
      withLogging(withJsonBody(timed, options.apiKey), logger, clock),
      limiter,
      this.stats,
      clock,
    );
    const budgetMs = options.retryBudgetMs ?? DEFAULT_RETRY_BUDGET_SECONDS * 1000;
    this.#send = withRetry(limited, { policy, budgetMs, limiter, stats: this.stats, clock, logger });
    this.#transport = transport;
    this.signal = options.signal;
    this.#requestSignal = options.signal ? AbortSignal.any([options.signal, this.#streak.signal]) : this.#streak.signal;
  }

  /**
   * GET a single resource; validates `data` (and `meta` when a schema is given).
   * @returns `raw`: the whole body as parsed (`{ data, meta }`, unknown fields kept, big integers exact)
   * @throws ApiError on a non-2xx answer (after retries) or a body that breaks the contract (`code: 'invalid_response'`)
   * @example await client.getResource(`/public/v2/websites/${id}`, {}, websiteSchema)
   */
  async getResource<T>(
    path: string,
    query: Record<string, string | undefined>,
    dataSchema: z.ZodType<T>,
    metaSchema?: z.ZodType,
  ): Promise<{ data: T; meta: unknown; raw: unknown; requestId: string }> {
    const request: HttpRequest = { method: 'GET', path, query, headers: {} };
    const response = await this.#call(request);
    const envelope = dataEnvelope(dataSchema, metaSchema ?? requestMetaSchema).safeParse(response.json?.value);
    if (!envelope.success) throw invalidResponse(request, response, formatIssues(envelope.error));
    if (response.requestId === undefined) throw invalidResponse(request, response, 'meta.request_id: is missing');
    return {
      data: envelope.data.data as T,
      meta: envelope.data.meta,
      raw: response.json?.raw,
      requestId: response.requestId,
    };
  }

  /**
   * Pages through a list endpoint; see `paginate` for the rules.
   * @example for await (const page of client.paginate({ path: '/public/v2/websites', query: { limit: '500' }, recordSchema: websiteSchema })) ...
   */
  paginate<T>(options: PaginateOptions<T>): AsyncIterable<Page<T>> {
    return paginate((path, query) => this.#listPage(path, query), options);
  }

  /**
   * Any request, through the same limiter, retries and redaction (the prompt importer POSTs
   * exact bytes and polls receipts with it).
   * @throws ApiError on a non-2xx answer (after retries, unless `retry: 'never'`)
   */
  async request(options: RequestOptions): Promise<ApiResponse> {
    const { method, path, query, headers = {}, body, retry } = options;
    const response = await this.#call({ method, path, query, headers, body, retry });
    return {
      status: response.status,
      headers: response.headers,
      body: response.json?.raw,
      text: response.json?.text,
      requestId: response.requestId,
    };
  }

  /** Closes the keep-alive connections; requests after this fail. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  async #call(request: HttpRequest): Promise<HttpResponse> {
    let response: HttpResponse;
    try {
      response = await this.#send({ ...request, signal: this.#requestSignal });
    } catch (error) {
      if (error instanceof ResponseTooLargeError) throw this.#streak.failed(apiErrorFromTooLarge(request, error));
      if (error instanceof UnreadableSuccessError) throw this.#streak.failed(apiErrorFromUnreadable(request, error));
      throw error instanceof NetworkError ? this.#streak.failed(apiErrorFromNetwork(request, error)) : error;
    }
    this.stats.echoedKeys += response.echoedKeys ?? 0;
    if (response.status < 200 || response.status >= 300)
      throw this.#streak.failed(apiErrorFromResponse(request, response));
    this.#streak.answered();
    return response;
  }

  async #listPage(path: string, query: Record<string, string | undefined>): Promise<ListPage> {
    const limit = pageLimitSchema.parse(query.limit);
    const request: HttpRequest = { method: 'GET', path, query, headers: {}, listLimit: limit };
    const response = await this.#call(request);
    const envelope = listEnvelopeSchema.safeParse(response.json?.value);
    const records = response.json?.records;
    if (!envelope.success || records === undefined)
      throw invalidResponse(
        request,
        response,
        envelope.success ? 'data: must be an array' : formatIssues(envelope.error),
      );
    // `JSON.parse` kept the last of two equal keys: a page that says has_more twice cannot be trusted either way.
    const duplicate = envelopeDuplicateKey(response.json!.text);
    if (duplicate !== undefined)
      throw invalidResponse(request, response, `${duplicate}: is given twice, so which value holds is not known`);
    return { records, limit, meta: envelope.data.meta, requestId: envelope.data.meta.request_id };
  }
}
