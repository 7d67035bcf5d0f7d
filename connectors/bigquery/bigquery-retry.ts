/**
 * Which BigQuery failures a new attempt may pass, as data (docs/destinations/bigquery.md,
 * "Retries"): BigQuery's "Troubleshoot errors" page lists `backendError`, `internalError`,
 * `rateLimitExceeded` and `jobRateLimitExceeded` as retryable with backoff, and a DML
 * statement that lost to a concurrent one on its table after BigQuery's own reruns fails
 * with "Could not serialize access to table ... due to concurrent update". 5xx answers and
 * connection resets are the network's. Everything else (invalidQuery, accessDenied,
 * notFound, ...) is an answer: retrying it would only repeat it.
 *
 * Re-running is safe because every job aivis sends is idempotent: a flush loads into a
 * staging table of its own and MERGEs by key, state is upserted, the lease's statements
 * compare before they write.
 */
import { RetryPolicy } from '../../src/client/retry-policy.ts';

/** `errors[].reason` (HTTP errors) and `errorResult.reason` (failed jobs) worth another attempt. */
const RETRIED_REASONS: ReadonlySet<string> = new Set([
  'backendError',
  'internalError',
  'rateLimitExceeded',
  'jobRateLimitExceeded',
]);
/**
 * BigQuery's answer to a DML statement that lost to a concurrent one on its table once its own
 * reruns are used up (DML documentation, "DML statement conflicts"), worth another attempt
 * whatever its reason (BigQuery words it as `invalidQuery`).
 */
const CONCURRENT_UPDATE = /Could not serialize access to table \S+ due to concurrent update/;
const RETRIED_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);
/** Node's and undici's names for a connection that broke mid-request. */
const RETRIED_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
]);
const RETRIED_NETWORK_MESSAGES = /socket hang up|other side closed|ECONNRESET/;

/** Attempts of one job (the first included) and the time they may take, backoff included. */
export const MAX_ATTEMPTS = 6;
export const MAX_RETRY_MS = 10 * 60_000;
/** Full jitter from 1 s doubling to 32 s, as Google's client libraries back off. */
export const RETRY_BACKOFF = { baseDelayMs: 1_000, maxDelayMs: 32_000 } as const;

/** An error as the SDK or Node shapes it: HTTP status or network code, message, BigQuery's `errors[]`, cause. */
export interface ErrorLike {
  code?: number | string;
  message?: string;
  errors?: { reason?: string; message?: string }[];
  cause?: unknown;
}

/** `error` and its causes, at most three deep (a `DestinationError` wraps the SDK's error). */
function* errorChain(error: unknown): Generator<ErrorLike> {
  for (let e = error as ErrorLike | undefined, depth = 0; e && depth < 3; e = e.cause as ErrorLike, depth++) yield e;
}

/** Whether this one error (not its causes) is BigQuery's concurrent-update conflict. */
function concurrentUpdateAt(e: ErrorLike): boolean {
  return [e.message ?? '', ...(e.errors ?? []).map((x) => x.message ?? '')].some((m) => CONCURRENT_UPDATE.test(m));
}

/**
 * Whether `error` (or one of its causes) is a DML statement that lost to a concurrent one on
 * the same table: retried here, and taken by the lease's statements as "not taken".
 */
export function isConcurrentUpdate(error: unknown): boolean {
  for (const e of errorChain(error)) if (concurrentUpdateAt(e)) return true;
  return false;
}

/**
 * Why `error` is worth another attempt (a reason, a status or a network code), or undefined
 * when it is not.
 * @example transientReason({ code: 400, errors: [{ reason: 'invalidQuery', message: 'Could not serialize access to table p:d.t due to concurrent update' }] }) // 'concurrent update'
 */
export function transientReason(error: unknown): string | undefined {
  for (const e of errorChain(error)) {
    if (concurrentUpdateAt(e)) return 'concurrent update';
    const reason = e.errors?.find((x) => x.reason !== undefined)?.reason;
    if (reason !== undefined) return RETRIED_REASONS.has(reason) ? reason : undefined;
    if (typeof e.code === 'number' && RETRIED_STATUSES.has(e.code)) return `HTTP ${e.code}`;
    if (typeof e.code === 'string' && RETRIED_NETWORK_CODES.has(e.code)) return e.code;
    if (RETRIED_NETWORK_MESSAGES.test(e.message ?? '')) return 'connection reset';
  }
  return undefined;
}

/** The backoff before retry `retriesSoFar + 1`; `random` is the jitter's draw in [0, 1). */
export function retryDelayMs(retriesSoFar: number, random: () => number): number {
  return new RetryPolicy({ ...RETRY_BACKOFF, random }).backoffMs(retriesSoFar);
}
