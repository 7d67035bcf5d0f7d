/**
 * Duplicate keys in a V2 envelope. `JSON.parse` keeps the last of two equal keys, so a body
 * saying `"has_more":true,"has_more":false` reads as the end of a scan and its rest is lost
 * silently; RFC 8259 leaves such a body's meaning open, so aivis refuses it. Only the envelope
 * is checked (its top-level keys and those of `meta`): records may carry what fields they
 * like, and their own duplicates cost no rows. One pass over text already known to be JSON.
 */

/** `meta.has_more` (or `data`, ...) when the envelope names a key twice; undefined when not. */
export function envelopeDuplicateKey(text: string): string | undefined {
  const top = skipSpace(text, 0);
  if (text.charCodeAt(top) !== OPEN_OBJECT) return undefined;
  let duplicate: string | undefined;
  scanObject(text, top, (key, again, valueStart) => {
    if (again) duplicate ??= key;
    else if (key === 'meta' && text.charCodeAt(valueStart) === OPEN_OBJECT)
      scanObject(text, valueStart, (metaKey, metaAgain) => {
        if (metaAgain) duplicate ??= `meta.${metaKey}`;
      });
  });
  return duplicate;
}

const OPEN_OBJECT = 0x7b;
const QUOTE = 0x22;

/**
 * Walks the members of the object opening at `start`, calling `member` with each key, whether
 * this object named it before, and where its value starts; returns the index after the
 * closing brace.
 */
function scanObject(
  text: string,
  start: number,
  member: (key: string, again: boolean, valueStart: number) => void,
): number {
  const seen = new Set<string>();
  let i = skipSpace(text, start + 1);
  if (text[i] === '}') return i + 1;
  for (;;) {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
    member(key, seen.has(key), valueStart);
    seen.add(key);
    i = skipSpace(text, valueEnd(text, valueStart));
    if (text[i] === '}') return i + 1;
    i = skipSpace(text, i + 1); // the comma
  }
}

/** The index after the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/** The index after the JSON value starting at `start` (nested containers skipped whole). */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === QUOTE) return stringEnd(text, start);
  if (first !== OPEN_OBJECT && first !== 0x5b) {
    let i = start;
    while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
    return i;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) i = stringEnd(text, i) - 1;
    else if (code === OPEN_OBJECT || code === 0x5b) depth++;
    else if ((code === 0x7d || code === 0x5d) && --depth === 0) return i + 1;
  }
  return text.length;
}

function skipSpace(text: string, start: number): number {
  let i = start;
  while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  return i;
}
