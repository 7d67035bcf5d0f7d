/**
 * Text every destination can store: an unpaired UTF-16 surrogate (`"\udc00"` in JSON, which a
 * server may send in any field) has no UTF-8 form, and each warehouse fails on it its own way
 * (DuckDB's JSON reader refuses the whole flush, Postgres' JSONB refuses the escape). aivis
 * stores U+FFFD in its place on every destination, in text columns and JSON alike
 * (docs/spec-reading.md#odd-values-in-records); every other character is kept.
 */

/** JSON escapes from the left in whole units (a surrogate pair, one `\uXXXX`, or a backslash and its character). */
const JSON_ESCAPE = /\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[\s\S])/g;
const SURROGATE_ESCAPE_HINT = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE_ESCAPE = /^\\u[dD][89a-fA-F][0-9a-fA-F]{2}$/;

/**
 * Rewrites the escapes of JSON text one whole escape at a time, so an escaped backslash
 * followed by `u0000` stays literal text.
 */
export function mapJsonEscapes(json: string, replace: (unit: string) => string): string {
  return json.replace(JSON_ESCAPE, replace);
}

/** Whether an escape is of one unpaired surrogate (a pair is matched whole by `mapJsonEscapes`). */
export function isLoneSurrogateEscape(unit: string): boolean {
  return LONE_SURROGATE_ESCAPE.test(unit);
}

/** ES2024's `String.prototype.isWellFormed` / `toWellFormed` (Node 20+), beyond the project's TypeScript lib. */
type Es2024String = { isWellFormed(): boolean; toWellFormed(): string };

/** Text without unpaired surrogates: each becomes U+FFFD. */
export function wellFormedText(text: string): string {
  const es2024 = text as unknown as Es2024String;
  return es2024.isWellFormed() ? text : es2024.toWellFormed();
}

/** JSON text without unpaired surrogates, escaped or literal: each becomes U+FFFD. */
export function wellFormedJson(json: string): string {
  const text = wellFormedText(json);
  return SURROGATE_ESCAPE_HINT.test(text)
    ? mapJsonEscapes(text, (unit) => (isLoneSurrogateEscape(unit) ? '\\ufffd' : unit))
    : text;
}
