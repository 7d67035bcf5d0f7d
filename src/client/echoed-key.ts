/**
 * The API key, found in decoded JSON values: a server that echoes the key may write it as
 * plain text, with `\u` escapes for one character or all of them, in a string or an object
 * key, at any depth. Searching the body's text misses every escaped form; searching the
 * values `JSON.parse` decoded finds them all, so the key never reaches a column, `_raw`,
 * `_aivis_rejected` or a message (docs/spec-reading.md#odd-values-in-records).
 */

/** What the JSON layer does with the key in a parsed body. */
export interface EchoedKey {
  /** Copies of the key in the value's strings and object keys. */
  count(value: unknown): number;
  /** Replaces each copy with `[REDACTED]` in place (the value is freshly parsed, nobody else holds it); returns it. */
  redact<T>(value: T): T;
}

export const REDACTED = '[REDACTED]';

/** A key this short would mask ordinary words; real keys are far longer. */
const MIN_MASKED_KEY_CHARS = 8;

const isRawJson = (JSON as unknown as { isRawJSON(value: unknown): boolean }).isRawJSON;

const ignored: EchoedKey = { count: () => 0, redact: (value) => value };

export function echoedKey(apiKey: string | undefined): EchoedKey {
  if (apiKey === undefined || apiKey.length < MIN_MASKED_KEY_CHARS) return ignored;
  const copies = (text: string) => {
    let found = 0;
    for (let at = text.indexOf(apiKey); at >= 0; at = text.indexOf(apiKey, at + apiKey.length)) found++;
    return found;
  };
  const clean = (text: string) => (text.includes(apiKey) ? text.split(apiKey).join(REDACTED) : text);
  return {
    count(value) {
      let found = 0;
      walk(value, (text) => {
        found += copies(text);
      });
      return found;
    },
    redact(value) {
      if (typeof value === 'string') return clean(value) as typeof value;
      walk(
        value,
        () => {},
        (container) => {
          if (Array.isArray(container)) {
            container.forEach((item, i) => {
              if (typeof item === 'string') container[i] = clean(item);
            });
            return;
          }
          const object = container as Record<string, unknown>;
          const keys = Object.keys(object);
          const renamed = keys.some((key) => key.includes(apiKey));
          for (const key of keys) {
            const item = object[key];
            if (typeof item === 'string') object[key] = clean(item);
          }
          if (!renamed) return;
          // Members are written again in their order, as own data properties (a `__proto__` key stays a key).
          const members = keys.map((key) => [clean(key), object[key]] as const);
          for (const key of keys) delete object[key];
          for (const [key, item] of members)
            Object.defineProperty(object, key, { value: item, writable: true, enumerable: true, configurable: true });
        },
      );
      return value;
    },
  };
}

/**
 * Visits every string and object key of a JSON value (`text`) and every container (`each`),
 * without recursion: a server may nest a record thousands of levels deep.
 */
function walk(value: unknown, text: (value: string) => void, each?: (container: object) => void): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') text(item);
    if (item === null || typeof item !== 'object' || isRawJson(item)) continue;
    if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else {
      for (const key of Object.keys(item)) {
        text(key);
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
    each?.(item);
  }
}
