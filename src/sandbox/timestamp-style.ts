/**
 * How the sandbox writes its timestamps. Data times are whole milliseconds, written
 * `YYYY-MM-DDThh:mm:ss[.mmm]Z` by default (`timestamps.ts`). The two timestamp variants write
 * the same instants in other forms the spec allows, on every response and in `truth`, and read
 * `updated_since` back so that a bound sent back verbatim still loses nothing.
 */
import { hashKey } from './prng.ts';
import { parseTimestamp, parseTimestampParts } from './timestamps.ts';
import type { SandboxVariant } from './variants.ts';

export interface TimestampStyle {
  /** A copy of a response body (or a truth record) with every timestamp string written in this style. */
  present<T>(value: T): T;
  /** An `updated_since` as the first whole millisecond it admits (inclusive), or null. */
  parse(text: string): number | null;
}

/** The forms the sandbox writes by default (`formatTimestamp`, `Date#toISOString`). */
const WRITTEN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}):(\d{2})(?:\.(\d{3}))?Z$/;

const plain: TimestampStyle = { present: (value) => value, parse: parseTimestamp };

/** `hh:mmZ`: the minute the instant falls in. Every stamp and bound of the sandbox is a whole minute, so only data fields such as `observed_at` lose their seconds. */
const withoutSeconds: TimestampStyle = {
  present: (value) => mapStrings(value, (text) => WRITTEN.exec(text)?.[1]?.concat('Z') ?? text),
  parse: parseTimestamp,
};

/**
 * Nine fraction digits: instant T (whole milliseconds) is written T plus `belowMs(T)`
 * nanoseconds, never zero, the same for every field. Reading `updated_since` inverts that, so a
 * bound sent back verbatim admits exactly the rows at or after it.
 */
const nanoseconds: TimestampStyle = {
  present: (value) =>
    mapStrings(value, (text) => {
      const m = WRITTEN.exec(text);
      if (!m) return text;
      const ms = parseTimestamp(text)!;
      return `${m[1]}:${m[2]}.${m[3] ?? '000'}${belowMs(ms)}Z`;
    }),
  parse(text) {
    const parts = parseTimestampParts(text);
    if (!parts) return null;
    const digits = parts.belowMs.padEnd(6, '0');
    const written = belowMs(parts.ms);
    const after = digits.slice(0, 6) > written || (digits.slice(0, 6) === written && /[1-9]/.test(digits.slice(6)));
    return after ? parts.ms + 1 : parts.ms;
  },
};

/** Six digits below the millisecond for instant `ms`, from 100000 to 999999. */
function belowMs(ms: number): string {
  return String(100_000 + (hashKey('below-ms', ms) % 900_000));
}

export function timestampStyle(variants: ReadonlySet<SandboxVariant>): TimestampStyle {
  if (variants.has('nanosecond_timestamps')) return nanoseconds;
  if (variants.has('timestamps_without_seconds')) return withoutSeconds;
  return plain;
}

/**
 * A copy of a JSON value with `map` applied to every string value (keys stay). Iterative, so
 * a record nested thousands of levels deep (the `deep_records` variant) passes too.
 */
function mapStrings<T>(root: T, map: (text: string) => string): T {
  if (typeof root === 'string') return map(root) as T;
  if (root === null || typeof root !== 'object') return root;
  const copy = (value: object): Record<string, unknown> => (Array.isArray(value) ? [] : {}) as Record<string, unknown>;
  const out = copy(root);
  const stack: [Record<string, unknown>, Record<string, unknown>][] = [[root as Record<string, unknown>, out]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    for (const key of Object.keys(source)) {
      const value = source[key];
      if (typeof value === 'string') target[key] = map(value);
      else if (value !== null && typeof value === 'object') {
        const inner = copy(value);
        target[key] = inner;
        stack.push([value as Record<string, unknown>, inner]);
      } else target[key] = value;
    }
  }
  return out as T;
}
