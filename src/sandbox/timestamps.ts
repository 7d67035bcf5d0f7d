/**
 * Timestamps as the spec writes them (ISO 8601 UTC ending in `Z`). Sandbox times are whole
 * seconds, printed without a fraction so stamps read like the spec's examples.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export function formatTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?Z$/;

/**
 * Parses `YYYY-MM-DDThh:mm[:ss[.fraction]]Z` (spec 4.4) with a real calendar date into the
 * whole millisecond it falls in and the fraction digits below that millisecond (`''` when
 * none), or returns null.
 */
export function parseTimestampParts(text: string): { ms: number; belowMs: string } | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  const fraction = m[7] ?? '';
  if (month! < 1 || month! > 12 || day! < 1 || hour! > 23 || minute! > 59 || second! > 59) return null;
  const whole = Date.UTC(year!, month! - 1, day!, hour, minute, second);
  const date = new Date(whole);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day) return null;
  return { ms: whole + Number(fraction.slice(0, 3).padEnd(3, '0')), belowMs: fraction.slice(3) };
}

/**
 * `parseTimestampParts` as one instant: digits below a millisecond round UP, because
 * `updated_since` is inclusive and every sandbox stamp is a whole millisecond, so the first
 * stamp at or after the instant is the ceiling.
 */
export function parseTimestamp(text: string): number | null {
  const parts = parseTimestampParts(text);
  if (!parts) return null;
  return /[1-9]/.test(parts.belowMs) ? parts.ms + 1 : parts.ms;
}
