/**
 * A list page's body split on its bytes, without decoding it whole: the envelope (every
 * top-level member, each `data` array emptied) becomes small JSON text, and the elements of
 * `data` stay where they are in the bytes, found by bracket depth. The client then decodes
 * one record at a time (docs/spec-reading.md#page-bounds), so a page costs the heap one record
 * and the envelope, not the body as one string and two parsed copies of it.
 *
 * Only the structure is checked here (strings closed, brackets balanced, members and elements
 * separated, nothing after the envelope); each piece is then checked by `JSON.parse`.
 */

/** Where a page's records are in its bytes. */
export interface SplitListBody {
  /** The envelope's JSON text, each top-level `data` array written as `[]`; undefined when over the record bounds. */
  readonly envelopeText: string | undefined;
  /** Bytes of the envelope's JSON text. */
  readonly envelopeBytes: number;
  /** Elements of the first top-level `data` array, all of them (also past `keep`). */
  readonly count: number;
  /** Byte offsets of the first `keep` elements: start, end, start, end, ... */
  readonly spans: readonly number[];
  /** The first kept element over the record bounds: its index, length and objects and arrays. */
  readonly oversized?: { readonly index: number; readonly bytes: number; readonly containers: number };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** UTF-8 text of `bytes[start, end)`; bad sequences become U+FFFD, as for a whole body. */
export function decodeSpan(bytes: Uint8Array, start: number, end: number): string {
  return decoder.decode(bytes.subarray(start, end));
}

/**
 * @param keep spans are kept for this many elements at most (the page's `limit`), so a page of
 *   a million records costs a count, not a million offsets
 * @param bounds the most bytes, and objects and arrays, one element or the envelope may hold:
 *   parsed, a record costs the heap about its size in text, and some 60 bytes per object or
 *   array (`[{},{},...]` takes 3 bytes of JSON for each), so both are bounded. A larger
 *   element is named in `oversized`, a larger envelope is not decoded.
 * @returns undefined when the body is not a JSON object (it is then parsed whole, and its
 *   envelope refused); throws SyntaxError when its structure is broken (cut short)
 */
export function splitListBody(
  bytes: Uint8Array,
  keep: number,
  bounds: { readonly maxBytes: number; readonly maxContainers: number },
): SplitListBody | undefined {
  const hasBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  let i = skipSpace(bytes, hasBom ? 3 : 0);
  if (bytes[i] !== OPEN_OBJECT) return undefined;
  /** Byte ranges of the envelope's text: start, end, start, end, ... */
  const pieces: number[] = [];
  let pieceStart = i;
  let count = 0;
  const spans: number[] = [];
  let oversized: SplitListBody['oversized'];
  let dataSeen = false;
  const containers = { count: 0 };
  i = skipSpace(bytes, i + 1);
  if (bytes[i] !== CLOSE_OBJECT) {
    for (;;) {
      if (bytes[i] !== QUOTE) throw broken(i);
      const keyEnd = stringEnd(bytes, i);
      const key: unknown = JSON.parse(decodeSpan(bytes, i, keyEnd));
      i = skipSpace(bytes, keyEnd);
      if (bytes[i] !== COLON) throw broken(i);
      i = skipSpace(bytes, i + 1);
      if (key === 'data' && bytes[i] === OPEN_ARRAY) {
        // Every `data` array is emptied in the envelope (a second one is refused there as a duplicate key).
        pieces.push(pieceStart, i + 1);
        const first = !dataSeen;
        dataSeen = true;
        i = skipSpace(bytes, i + 1);
        if (bytes[i] !== CLOSE_ARRAY) {
          for (;;) {
            const envelopeContainers = containers.count;
            const end = valueEnd(bytes, i, containers);
            const held = containers.count - envelopeContainers;
            containers.count = envelopeContainers;
            if (first && count < keep) {
              spans.push(i, end);
              if (end - i > bounds.maxBytes || held > bounds.maxContainers)
                oversized ??= { index: count, bytes: end - i, containers: held };
            }
            if (first) count++;
            i = skipSpace(bytes, end);
            if (bytes[i] === CLOSE_ARRAY) break;
            if (bytes[i] !== COMMA) throw broken(i);
            i = skipSpace(bytes, i + 1);
          }
        }
        pieceStart = i;
        i++;
      } else {
        i = valueEnd(bytes, i, containers);
      }
      i = skipSpace(bytes, i);
      if (bytes[i] === CLOSE_OBJECT) break;
      if (bytes[i] !== COMMA) throw broken(i);
      i = skipSpace(bytes, i + 1);
    }
  }
  if (skipSpace(bytes, i + 1) !== bytes.length) throw broken(i + 1);
  pieces.push(pieceStart, bytes.length);
  let envelopeBytes = 0;
  for (let p = 0; p < pieces.length; p += 2) envelopeBytes += pieces[p + 1]! - pieces[p]!;
  // Beside its records a page holds a few hundred bytes of `meta`: one as large as a record is held to the same bound.
  const envelopeText =
    envelopeBytes > bounds.maxBytes || containers.count > bounds.maxContainers
      ? undefined
      : Array.from({ length: pieces.length / 2 }, (_, p) => decodeSpan(bytes, pieces[2 * p]!, pieces[2 * p + 1]!)).join(
          '',
        );
  return { envelopeText, envelopeBytes, count, spans, ...(oversized ? { oversized } : {}) };
}

/** Names only the offset: the bytes themselves could be a secret the server echoed. */
const broken = (offset: number) => new SyntaxError(`JSON structure broken at byte ${offset}`);

function skipSpace(bytes: Uint8Array, start: number): number {
  let i = start;
  while (isSpace(bytes[i])) i++;
  return i;
}

/** The offset after the string opening at `start`. */
function stringEnd(bytes: Uint8Array, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = bytes.indexOf(QUOTE, i);
    if (quote < 0) throw broken(start);
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/**
 * The offset after the JSON value starting at `start`: a container by bracket depth, a scalar
 * up to its delimiter. Adds the objects and arrays it holds (itself included) to `containers`.
 */
function valueEnd(bytes: Uint8Array, start: number, containers: { count: number }): number {
  const first = bytes[start];
  if (first === QUOTE) return stringEnd(bytes, start);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let i = start;
    while (i < bytes.length && !isDelimiter(bytes[i]!)) i++;
    if (i === start) throw broken(start);
    return i;
  }
  let depth = 0;
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === QUOTE) i = stringEnd(bytes, i) - 1;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
      containers.count++;
    } else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return i + 1;
  }
  throw broken(start);
}

const isDelimiter = (byte: number) =>
  byte === COMMA || byte === CLOSE_OBJECT || byte === CLOSE_ARRAY || byte === COLON || isSpace(byte);
