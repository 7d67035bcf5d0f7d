/**
 * The contract between the client's layers (auth, JSON body, timeout, logging, limiter,
 * retry): each takes the next `Send` and returns one that adds its single concern, the way
 * undici composes interceptors. The innermost `Send` is the undici transport.
 */
import type { RetryBudget } from './retry-budget.ts';

/** One attempt's request, as the layers pass it inward. */
export interface HttpRequest {
  method: 'GET' | 'POST';
  /** Path below the base URL, e.g. `/public/v2/websites`. */
  path: string;
  /** Undefined values are left out of the query string. */
  query?: Record<string, string | undefined>;
  headers: Record<string, string>;
  /** Sent as is, byte for byte, on every attempt (the importer relies on it). */
  body?: Uint8Array;
  /** `never`: one attempt, whatever the outcome (a 429 still pauses the limiter). */
  retry?: 'default' | 'never';
  /**
   * The run's stop signal, from the client; the timeout layer adds its deadline to it, and
   * the transport aborts headers and body on the result.
   */
  signal?: AbortSignal;
  /** Set by the retry layer: what the request may still spend (the limiter and timeout layers read it). */
  budget?: RetryBudget;
  /**
   * Set for a list page: the `limit` asked for. Its `data` is split record by record and kept
   * for at most this many records (`JsonBody.records`).
   */
  listLimit?: number;
}

/** A response whose body was read whole, as bytes (outside the JS heap, up to the size cap). */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Uint8Array;
  /** Filled by the JSON layer: the body as parsed, or undefined when it is not JSON. */
  json?: JsonBody;
  /** The API's `meta.request_id`, else a request-id header; filled by the JSON layer. */
  requestId?: string;
  /** Copies of the API key the body carried, redacted by the JSON layer in the decoded values. */
  echoedKeys?: number;
  /** Retries made before this response was final; set by the retry layer. */
  retries?: number;
  /**
   * Set by the retry layer when the server asked to wait (`Retry-After`) longer than is left of
   * the request's retry budget: the wait, what was left, the budget, and when the wait ends (epoch ms).
   */
  refusedWait?: RefusedWait;
  /** Set by the retry layer when the request's retry budget (this many ms) ended its retries. */
  budgetSpentMs?: number;
}

/** A `Retry-After` the retry budget could not hold (see `HttpResponse.refusedWait`). */
export interface RefusedWait {
  waitMs: number;
  leftMs: number;
  budgetMs: number;
  until: number;
}

/**
 * A parsed body twice over: `value` with plain JS numbers (what schemas validate) and `raw`
 * with integers beyond 2^53 kept exact (what `_raw` stores). The same object when no such
 * integer is present, which is nearly always.
 */
export interface JsonBody {
  value: unknown;
  raw: unknown;
  /** The JSON text parsed (of a list page: its envelope, `data` empty), for the duplicate-key check. */
  text: string;
  /** A list page's records (`HttpRequest.listLimit`), still bytes; `data` of `value` and `raw` is empty then. */
  records?: ListRecords;
}

/**
 * The records of a list page, checked for JSON one by one but held as bytes: each is decoded
 * again when `read`, so one record at a time is in the heap (docs/spec-reading.md#page-bounds).
 */
export interface ListRecords {
  /** Elements `data` holds, all of them (also past the limit). */
  readonly count: number;
  /** The first record larger than aivis holds (`MAX_RECORD_BYTES`, `MAX_RECORD_CONTAINERS`); the page is refused then. */
  readonly oversized?: { readonly index: number; readonly bytes: number; readonly containers: number };
  /** `recordIdentity` of each record, in order; empty when the page holds more than its limit. */
  readonly identities: readonly string[];
  /** Record `index` (below `count` and the limit) decoded, the API key redacted. */
  read(index: number): { value: unknown; raw: unknown };
}

export type Send = (request: HttpRequest) => Promise<HttpResponse>;

/** The `x-request-id` header a gateway may set: the request id when the body names none. */
export function headerRequestId(headers: HttpResponse['headers']): string | undefined {
  const header = headers['x-request-id'];
  return typeof header === 'string' && header !== '' ? header : undefined;
}
