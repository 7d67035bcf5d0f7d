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
 * Parses `YYYY-MM-DDThh:mm[:ss[.fraction]]Z` (spec 4.4) with a real calendar date, or returns
 * null. Digits below a millisecond round UP: `updated_since` is inclusive, and every sandbox
 * stamp is a whole millisecond, so the first stamp at or after the instant is the ceiling.
 */
export function parseTimestamp(text: string): number | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  const fraction = m[7] ?? '';
  if (month! < 1 || month! > 12 || day! < 1 || hour! > 23 || minute! > 59 || second! > 59) return null;
  const whole = Date.UTC(year!, month! - 1, day!, hour, minute, second);
  const date = new Date(whole);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month! - 1 || date.getUTCDate() !== day) return null;
  const millis = Number(`0.${fraction || '0'}`) * 1000;
  return whole + Math.ceil(millis - 1e-9);
}
