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
 * reviver recursively, so a body (a page's record) nested deeper than `REVIVER_DEPTH` is parsed
 * without one (`JSON.parse` itself is iterative): a record that deep is quarantined anyway.
 *
 * A list page is never decoded whole: its records stay bytes and are decoded one at a time
 * (list-body.ts, docs/spec-reading.md#page-bounds).
 */
import { decodeSpan, splitListBody } from '../json/list-body.ts';
import { textNestingDepth } from '../json/nesting-depth.ts';
import { MAX_RECORD_BYTES, MAX_RECORD_CONTAINERS, ResponseTooLargeError } from './capped-body.ts';
import { echoedKey, type EchoedKey } from './echoed-key.ts';
import { type HttpResponse, headerRequestId, type JsonBody, type ListRecords, type Send } from './http-exchange.ts';
import { recordIdentity } from './record-identity.ts';
import { unreadableSuccess } from './unreadable-success.ts';

/**
 * @param apiKey redacted in the decoded values, however the body escaped it: a server that
 *   echoes the key inside a record must not get it stored in a table (each copy counted in
 *   `HttpResponse.echoedKeys`).
 */
export function withJsonBody(next: Send, apiKey?: string): Send {
  const key = echoedKey(apiKey);
  return async (request) => {
    const response = await next(request);
    const success = response.status >= 200 && response.status < 300;
    let read: { json: JsonBody; echoedKeys: number } | undefined;
    try {
      read = response.body.length === 0 ? undefined : readJsonBody(response, request.listLimit, key);
    } catch (error) {
      if (error instanceof ResponseTooLargeError) throw error;
      // The parser's own message quotes the start of the body, which could be a secret
      // echoed back (a fragment that redaction cannot recognise): it is not kept.
    }
    if (success && read === undefined) throw unreadableSuccess(response);
    const json = read?.json;
    return {
      ...response,
      json,
      requestId: requestIdOf(json?.value, response.headers),
      ...(read?.echoedKeys ? { echoedKeys: read.echoedKeys } : {}),
    };
  };
}

const wholeBody = new TextDecoder();
const RECORD_BOUNDS = { maxBytes: MAX_RECORD_BYTES, maxContainers: MAX_RECORD_CONTAINERS };

/**
 * A body parsed, the key redacted. A list page (`listLimit`) is split on its bytes
 * (list-body.ts): its envelope parsed, each record parsed once to check it is JSON, to count
 * echoed keys and to take its identity, and dropped again; `records.read` decodes it anew.
 * Past its limit, or with a record too large to hold, a page's records are not parsed at all:
 * the scan guard refuses it.
 * @throws SyntaxError when the body is not JSON; ResponseTooLargeError when a success's JSON
 *   decoded at once (a page's envelope beside its records, any other body whole) is larger than
 *   a record may be: one such body costs the heap what one record does at most
 */
function readJsonBody(
  response: HttpResponse,
  listLimit: number | undefined,
  key: EchoedKey,
): { json: JsonBody; echoedKeys: number } {
  const bytes = response.body;
  const split = listLimit === undefined ? undefined : splitListBody(bytes, listLimit, RECORD_BOUNDS);
  if (split === undefined ? bytes.length > MAX_RECORD_BYTES : split.envelopeText === undefined) {
    const part = split === undefined ? 'the response body, read whole,' : "the page's envelope beside its records";
    // An error body that large is not read: its status still reports the failure.
    if (response.status < 200 || response.status >= 300) throw new SyntaxError(`${part} is too large to read`);
    throw new ResponseTooLargeError(response.status, MAX_RECORD_BYTES, headerRequestId(response.headers), part);
  }
  const text = split?.envelopeText ?? wholeBody.decode(bytes);
  const envelope = parseJsonBody(text);
  let echoedKeys = key.count(envelope.value);
  const redacted = redact(envelope, key);
  if (split === undefined) return { json: { ...redacted, text }, echoedKeys };
  const { count, spans, oversized } = split;
  const identities: string[] = [];
  if (count <= listLimit! && oversized === undefined) {
    for (let i = 0; i < spans.length; i += 2) {
      const record: unknown = JSON.parse(decodeSpan(bytes, spans[i]!, spans[i + 1]!));
      identities.push(recordIdentity(record));
      echoedKeys += key.count(record);
    }
  }
  const records: ListRecords = {
    count,
    identities,
    ...(oversized ? { oversized } : {}),
    read: (index) => redact(parseJsonBody(decodeSpan(bytes, spans[2 * index]!, spans[2 * index + 1]!)), key),
  };
  return { json: { ...redacted, text, records }, echoedKeys };
}

function redact(parsed: { value: unknown; raw: unknown }, key: EchoedKey): { value: unknown; raw: unknown } {
  const value = key.redact(parsed.value);
  return { value, raw: parsed.raw === parsed.value ? value : key.redact(parsed.raw) };
}

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
export function parseJsonBody(text: string): { value: unknown; raw: unknown } {
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
  return typeof fromBody === 'string' && fromBody !== '' ? fromBody : headerRequestId(headers);
}
