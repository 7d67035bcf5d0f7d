/**
 * Reads a response body's bytes up to a size cap, so a server that answers with a
 * gigabyte (or an endless stream) fails that request with a clear error instead of taking
 * the process's heap. A declared `Content-Length` over the cap fails before any byte is
 * read; otherwise the bytes are counted as they arrive and reading stops at the cap.
 */
import { headerRequestId } from './http-exchange.ts';

/**
 * The largest body aivis reads of one response: a page of 500 records is a few MB at most.
 * The bytes stay outside the JS heap (a Buffer); a list page is decoded a record at a time.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * The largest record (one element of a page's `data`, as JSON bytes) aivis holds: decoding one
 * costs a few times its size in heap at once (its text, the parsed record, its `_raw` text), so
 * this bounds a page's cost under the container image's 256 MB heap, however long the page
 * (docs/spec-reading.md#page-bounds). A larger record refuses its page as a breach.
 */
export const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/**
 * The most objects and arrays one record (or a page's envelope) may hold: parsed, each costs
 * some 60 bytes of heap for 3 bytes of JSON (`{},`), so 4 MiB of them would cost 80 MB. A
 * mention holds about ten; a record over this refuses its page like a record over `MAX_RECORD_BYTES`.
 */
export const MAX_RECORD_CONTAINERS = 100_000;

/** A response whose body is larger than the cap; not retried (the same request gets the same body). */
export class ResponseTooLargeError extends Error {
  readonly status: number;
  readonly maxBytes: number;
  readonly requestId: string | undefined;

  /** @param part what is too large, when not the whole body: a list page's envelope beside its records */
  constructor(status: number, maxBytes: number, requestId: string | undefined, part?: string) {
    super(
      part === undefined
        ? `the response body is larger than ${maxBytes} bytes, the most aivis reads of one response`
        : `${part} is larger than ${maxBytes} bytes, the most aivis holds of it`,
    );
    this.name = 'ResponseTooLargeError';
    this.status = status;
    this.maxBytes = maxBytes;
    this.requestId = requestId;
  }
}

/** What the reader needs of an undici response. */
export interface ResponseToRead {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: AsyncIterable<Uint8Array> & { destroy(): unknown; on(event: 'error', listener: () => void): unknown };
}

export async function readCappedBody(response: ResponseToRead, maxBytes: number): Promise<Buffer> {
  const requestId = headerRequestId(response.headers);
  const tooLarge = () => {
    // Closing the body mid-read makes it emit an abort error that nobody else waits for.
    response.body.on('error', () => {});
    response.body.destroy();
    return new ResponseTooLargeError(response.statusCode, maxBytes, requestId);
  };
  if (Number(response.headers['content-length']) > maxBytes) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
