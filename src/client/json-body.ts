/**
 * Every V2 body is JSON (spec part 4). A success whose body is empty, cut short or not JSON
 * fails its request, in words saying what came instead (unreadable-success.ts: only JSON cut
 * short is retried); an error body that is not JSON (a proxy's HTML page) still reports its
 * status.
 *
 * Integers beyond 2^53 are kept exact in `raw` with `JSON.rawJSON` (the reviver's `source`),
 * so `_raw` holds the record as the API sent it even where a JS number cannot. A number no
 * double holds (`1e400`, `-1e400`, `1e-400`: parsed as infinity or zero) is kept in `raw` as a
 * JSON string of its exact text: not every warehouse's JSON type holds such a number, and a
 * string keeps every digit on all of them (docs/spec-reading.md#odd-values-in-records). V8 runs a
 * reviver recursively, so a body nested deeper than `REVIVER_DEPTH` is parsed without one
 * (`JSON.parse` itself is iterative): a record that deep is quarantined anyway, and the other
 * records of such a page keep their big integers only as JS numbers.
 */
import { textNestingDepth } from '../json/nesting-depth.ts';
import type { HttpResponse, JsonBody, Send } from './http-exchange.ts';
import { unreadableSuccess } from './unreadable-success.ts';

/**
 * @param apiKey masked in the body before it is parsed: a server that echoes the key inside a
 *   record must not get it stored in a table (each copy counted in `HttpResponse.echoedKeys`).
 */
export function withJsonBody(next: Send, apiKey?: string): Send {
  const mask = echoMask(apiKey);
  return async (request) => {
    const response = mask(await next(request));
    const success = response.status >= 200 && response.status < 300;
    let json: JsonBody | undefined;
    try {
      json = response.text === '' ? undefined : parseJsonBody(response.text);
    } catch {
      // The parser's own message quotes the start of the body, which could be a secret
      // echoed back (a fragment that redaction cannot recognise): it is not kept.
    }
    if (success && json === undefined) throw unreadableSuccess(response);
    return { ...response, json, requestId: requestIdOf(json?.value, response.headers) };
  };
}

/** Replaces the key (and its JSON-escaped form) in a response's text with `[REDACTED]`, counting the copies. */
function echoMask(apiKey: string | undefined): (response: HttpResponse) => HttpResponse {
  // A key this short would mask ordinary words; real keys are far longer.
  if (apiKey === undefined || apiKey.length < MIN_MASKED_KEY_CHARS) return (response) => response;
  const forms = [...new Set([apiKey, JSON.stringify(apiKey).slice(1, -1)])];
  return (response) => {
    let { text } = response;
    let echoedKeys = 0;
    for (const form of forms) {
      if (!text.includes(form)) continue;
      const parts = text.split(form);
      echoedKeys += parts.length - 1;
      text = parts.join(REDACTED);
    }
    return echoedKeys === 0 ? response : { ...response, text, echoedKeys };
  };
}

const MIN_MASKED_KEY_CHARS = 8;
const REDACTED = '[REDACTED]';

/**
 * Only a run of 16+ digits can be an integer beyond 2^53, and only those or an exponent of
 * three digits a number beyond double range; without either, one plain parse does.
 */
const NEEDS_REVIVER = /\d{16}|\d[eE][+-]?\d{3}/;
const INTEGER_SOURCE = /^-?\d+$/;
/** A number's digits before its exponent, when one of them is not zero. */
const NONZERO_MANTISSA = /^-?[0-9.]*[1-9]/;
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

/** Nesting a reviver follows safely: far above `MAX_RECORD_DEPTH`, far below where V8's stack ends (about 2,500). */
export const REVIVER_DEPTH = 1000;

/** @throws SyntaxError when `text` is not JSON */
export function parseJsonBody(text: string): JsonBody {
  const value: unknown = JSON.parse(text);
  if (!NEEDS_REVIVER.test(text) || textNestingDepth(text) > REVIVER_DEPTH) return { value, raw: value };
  const raw: unknown = JSON.parse(text, (_key, parsed: unknown, context?: { source?: string }) => {
    const source = context?.source;
    if (typeof parsed !== 'number' || source === undefined) return parsed;
    if (!Number.isFinite(parsed) || (parsed === 0 && NONZERO_MANTISSA.test(source))) return source;
    return !Number.isSafeInteger(parsed) && INTEGER_SOURCE.test(source) ? rawJson(source) : parsed;
  });
  return { value, raw };
}

/** `meta.request_id` of a V2 envelope, else the `x-request-id` header a gateway may set. */
function requestIdOf(body: unknown, headers: Record<string, string | string[] | undefined>): string | undefined {
  const fromBody = (body as { meta?: { request_id?: unknown } } | null | undefined)?.meta?.request_id;
  if (typeof fromBody === 'string' && fromBody !== '') return fromBody;
  const header = headers['x-request-id'];
  return typeof header === 'string' && header !== '' ? header : undefined;
}
