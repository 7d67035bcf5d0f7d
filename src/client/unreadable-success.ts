/**
 * A success (2xx) whose body is not a JSON document, in words that say what came instead
 * (docs/troubleshooting.md#not-a-v2-answer). Every V2 answer is JSON (spec part 4), so only a
 * body cut short is worth another attempt (the network may have cut it); an HTML page (a
 * proxy's or captive portal's login), another media type, or no body at all (a 204) is what
 * the server meant to send, and the same request would get it again: it fails at once.
 */
import { type HttpResponse, headerRequestId } from './http-exchange.ts';
import { NetworkError } from './network-error.ts';

/** A success that is not a V2 answer and is not retried; the client reports it as an invalid response. */
export class UnreadableSuccessError extends Error {
  readonly status: number;
  readonly requestId: string | undefined;

  constructor(status: number, message: string, requestId: string | undefined) {
    super(message);
    this.name = 'UnreadableSuccessError';
    this.status = status;
    this.requestId = requestId;
  }
}

/** A JSON media type: `application/json`, or any `+json` one (`application/problem+json`). */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/;
const HTML_TYPE = /^(?:text\/html|application\/xhtml\+xml)$/;
/** The start of an HTML page sent without its media type (or as JSON). */
const HTML_START = /^\s*<(?:!doctype html|html|head|body)\b/i;

/**
 * What to throw for a success whose body did not parse as JSON (`body` empty or not JSON).
 * @returns a NetworkError (retried) for JSON cut short; an UnreadableSuccessError otherwise
 */
export function unreadableSuccess(response: Pick<HttpResponse, 'status' | 'headers' | 'body'>): Error {
  const { status, headers, body } = response;
  const fail = (words: string) => new UnreadableSuccessError(status, words, headerRequestId(headers));
  if (body.length === 0) {
    return fail(
      status === 204
        ? 'the answer is 204 No Content, with no body, where every V2 answer is a JSON document'
        : `the ${status} response has an empty body, where every V2 answer is a JSON document`,
    );
  }
  const type = mediaType(headers['content-type']);
  // The body is not quoted: a server could echo a secret in it that redaction cannot recognise.
  const size = `${textLength(body)} characters`;
  if (HTML_TYPE.test(type) || HTML_START.test(new TextDecoder().decode(body.subarray(0, 200))))
    return fail(
      `the ${status} response is an HTML page (${type || 'no content type'}, ${size}), not JSON: a proxy or captive portal? check that source.base_url is the API and that this machine reaches it without a login page`,
    );
  if (type !== '' && !JSON_TYPE.test(type))
    return fail(`the ${status} response is ${JSON.stringify(type)} (${size}), not JSON`);
  return new NetworkError('bad_body', `the ${status} response body is not complete JSON (${size})`);
}

/** Length in UTF-16 code units of a body's UTF-8 text, counted on the bytes (the body may be 64 MiB). */
function textLength(bytes: Uint8Array): number {
  let length = 0;
  for (const byte of bytes) length += byte < 0x80 || byte >= 0xc0 ? (byte >= 0xf0 ? 2 : 1) : 0;
  return length;
}

/** `text/html` of `Text/HTML; charset=utf-8`, at most 100 characters of it; '' when absent. */
function mediaType(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return (value ?? '').split(';')[0]!.trim().toLowerCase().slice(0, 100);
}
