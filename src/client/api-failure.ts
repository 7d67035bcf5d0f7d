/**
 * Turns the last failed attempt into an ApiError whose message tells a data engineer what to
 * fix. Shape: `<what> (<status> <code>, request_id <id>): <request>: <API message>; <advice>`.
 */
import { ApiError, type ApiErrorDetail } from './api-error.ts';
import type { ResponseTooLargeError } from './capped-body.ts';
import type { HttpRequest, HttpResponse } from './http-exchange.ts';
import type { NetworkError } from './network-error.ts';
import type { UnreadableSuccessError } from './unreadable-success.ts';

/** Paths of the two prompt-import operations: their 403 means a different missing permission. */
const IMPORT_PATH = /\/prompts:import$|\/prompt-imports\//;

export function apiErrorFromResponse(request: HttpRequest, response: HttpResponse): ApiError {
  const { code, message, details } = readErrorBody(response.json?.value);
  const { status, requestId } = response;
  const tag = `(${status} ${code ?? 'no error code'}, request_id ${requestId ?? 'none'})`;
  const where = `${request.method} ${request.path}`;
  // The API's sentence ends in its own full stop; ours continues after it.
  const said =
    message === undefined
      ? ''
      : `: ${message.replace(/\.$/, '')}${details.length > 0 ? ` (${details.map((d) => `${d.field}: ${d.issue}`).join('; ')})` : ''}`;
  const after = retriesSaid(response.retries ?? 0, response.budgetSpentMs);
  const text = ((): string => {
    if (response.refusedWait) {
      const { waitMs, leftMs, budgetMs, until } = response.refusedWait;
      const wait = Number.isFinite(waitMs) ? `${Math.ceil(waitMs / 1000)} s` : 'an unbounded time';
      const asked = `${where}: the API asked to wait ${wait} (Retry-After) before the next attempt, more than the ${Math.floor(leftMs / 1000)} s left of this request's retry budget (source.retry_budget_seconds: ${budgetMs / 1000})${after}`;
      const when = comeBack(until);
      // A 429 pauses every request of the workspace: none of them could go on before then.
      if (status === 429)
        return `rate limited ${tag}: ${asked}; every request of this workspace would wait for it, so the run ends: run again ${when}`;
      return `API server error ${tag}: ${asked}; try again ${when}`;
    }
    if (status === 401) return `API key rejected ${tag}${quoted(message)}: check source.api_key or source.api_key_file`;
    if (status === 403 && IMPORT_PATH.test(request.path)) {
      return `access forbidden ${tag}${quoted(message)}: the key may not be V2-eligible for prompt imports (it needs an owner-issued key with the prompts_write scope in a V2 integration lineage), or V2 may not be enabled for this workspace; ask a workspace owner`;
    }
    if (status === 403)
      return `access forbidden ${tag}${quoted(message)}: V2 may not be enabled for this workspace, or the key may lack read scope; ask a workspace owner`;
    if (status === 429)
      return `rate limited ${tag}: ${where} still refused${after}; lower source.requests_per_minute or stop other clients of this workspace`;
    if (status >= 500) return `API server error ${tag}: ${where} still failing${after}${said}; try again later`;
    if (status === 404) return `not found ${tag}: ${where}${said}`;
    if (code === 'invalid_cursor') return `cursor refused ${tag}: ${where}${said}`;
    if (status === 409)
      return `idempotency conflict ${tag}: ${where}${said}; this Idempotency-Key was already used for a different request`;
    if (status === 413) return `payload too large ${tag}: ${where}${said}; an import body may be at most 5 MiB`;
    if (status === 415) return `unsupported media type ${tag}: ${where}${said}; the API takes only application/json`;
    return `API request refused ${tag}: ${where}${said}`;
  })();
  return new ApiError(text, {
    status,
    code,
    requestId,
    details,
    workspaceWide: response.refusedWait && status === 429,
  });
}

/** ` after 3 retries`, and why they ended when the retry budget ended them. */
function retriesSaid(retries: number, budgetSpentMs: number | undefined): string {
  const spent =
    budgetSpentMs === undefined
      ? ''
      : `, the ${budgetSpentMs / 1000} s of its retry budget spent (source.retry_budget_seconds)`;
  return retries > 0 || spent ? ` after ${retries} retries${spent}` : '';
}

/** `after 2026-03-01T01:00:00Z` (rounded up to the second), or `later` for a wait no date holds. */
function comeBack(until: number): string {
  const date = new Date(Math.ceil(until / 1000) * 1000);
  return Number.isNaN(date.getTime()) ? 'later' : `after ${date.toISOString().replace('.000Z', 'Z')}`;
}

/** The longest stretch of a server's message quoted back; the rest is cut, said so. */
const QUOTED_CHARS = 300;

/**
 * The server's own words, first (it knows which of the causes it is), as inert text: in double
 * quotes, JSON-escaped, so no newline, quote or terminal control in them can pass for ours.
 */
function quoted(message: string | undefined): string {
  if (message === undefined) return '';
  const cut = message.length > QUOTED_CHARS ? `${message.slice(0, QUOTED_CHARS)}...` : message;
  return `: the API says ${JSON.stringify(cut)}`;
}

const NETWORK_FAILURE_WORDS = {
  connection: { what: 'network error', advice: 'check source.base_url and the network, or try again later' },
  timeout: { what: 'request timed out', advice: 'check source.base_url and the network, or try again later' },
  bad_body: { what: 'incomplete response', advice: 'check source.base_url and the network, or try again later' },
  certificate: {
    what: 'TLS certificate not trusted',
    advice:
      "if a proxy or gateway presents your organisation's certificate, point NODE_EXTRA_CA_CERTS at that CA's PEM file",
  },
  not_tls: {
    what: 'not a TLS server',
    advice: 'use http:// in source.base_url if the server takes no TLS, or check the port',
  },
} as const;

export function apiErrorFromNetwork(request: HttpRequest, error: NetworkError): ApiError {
  const { what, advice } = NETWORK_FAILURE_WORDS[error.failure];
  const after = retriesSaid(error.retries, error.budgetSpentMs);
  return new ApiError(
    `${what} (no complete response, request_id none): ${request.method} ${request.path}: ${error.message}${after}; ${advice}`,
    { status: 0 },
    { cause: error },
  );
}

/** A body over the size cap: the same request would get the same body, so it is not retried. */
export function apiErrorFromTooLarge(request: HttpRequest, error: ResponseTooLargeError): ApiError {
  return new ApiError(
    `response too large (${error.status}, request_id ${error.requestId ?? 'none'}): ${request.method} ${request.path}: ${error.message} (${error.maxBytes / 1024 / 1024} MiB); nothing of it was used`,
    { status: error.status, code: 'response_too_large', requestId: error.requestId },
  );
}

/** A success that is not JSON at all (an HTML page, a 204): not retried, said what it was. */
export function apiErrorFromUnreadable(request: HttpRequest, error: UnreadableSuccessError): ApiError {
  return new ApiError(
    `invalid response (${error.status}, request_id ${error.requestId ?? 'none'}): ${request.method} ${request.path}: ${error.message}`,
    { status: error.status, code: 'invalid_response', requestId: error.requestId },
  );
}

/** A success whose body breaks the V2 contract (bad envelope or resource): not retried, reported. */
export function invalidResponse(request: HttpRequest, response: HttpResponse, issues: string): ApiError {
  return new ApiError(
    `invalid response (${response.status}, request_id ${response.requestId ?? 'none'}): ${request.method} ${request.path}: the body does not match the V2 contract: ${issues}`,
    { status: response.status, code: 'invalid_response', requestId: response.requestId },
  );
}

/**
 * Reads `{ error: { code, message, details } }` leniently: an error report must survive an
 * error body that is itself off-contract (a proxy's page, a message over 1,024 characters).
 */
function readErrorBody(body: unknown): { code?: string; message?: string; details: ApiErrorDetail[] } {
  const error = (body as { error?: Record<string, unknown> } | null | undefined)?.error;
  if (typeof error !== 'object' || error === null) return { details: [] };
  const details = Array.isArray(error.details)
    ? error.details.filter((d): d is ApiErrorDetail => typeof d?.field === 'string' && typeof d?.issue === 'string')
    : [];
  return {
    ...(typeof error.code === 'string' ? { code: error.code } : {}),
    ...(typeof error.message === 'string' && error.message !== '' ? { message: error.message } : {}),
    details,
  };
}
