/**
 * Timestamps in tables are stored at microsecond precision on every destination: the finest
 * BigQuery, Postgres and DuckDB hold (BigQuery refuses more digits; Postgres would round).
 * Digits below a microsecond are truncated, never rounded: a rounded-up stamp could land past
 * the frontier that was read with it. `_raw` and saved state keep the API's text exactly.
 */

/** A timestamp as the API may write it: seconds and fraction optional, any number of digits. */
const API_TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(?::(\d{2})(?:\.(\d+))?)?Z$/;

/**
 * The stored form of a logical timestamp: `YYYY-MM-DDThh:mm:ss.ffffffZ`, truncated to the
 * microsecond. Text in any other form is returned unchanged (the destination refuses it).
 * @example microsecondTimestamp('2026-01-02T03:04:05.123456789Z') // '2026-01-02T03:04:05.123456Z'
 * @example microsecondTimestamp('2026-01-02T03:04Z') // '2026-01-02T03:04:00.000000Z'
 */
export function microsecondTimestamp(text: string): string {
  if (text.length === 27 && text[19] === '.' && text[26] === 'Z') return text; // already canonical (the common case)
  const m = API_TIMESTAMP.exec(text);
  if (!m) return text;
  const [, minutes, seconds = '00', fraction = ''] = m;
  return `${minutes}:${seconds}.${fraction.slice(0, 6).padEnd(6, '0')}Z`;
}

/** Microseconds since the epoch as the logical timestamp form: ISO-8601 UTC with six fractional digits. */
export function isoFromMicros(micros: bigint): string {
  // Floor, not truncate: before 1970 the fraction still counts forward from a whole second.
  const fraction = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const seconds = (micros - fraction) / 1_000_000n;
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction.toString().padStart(6, '0')}Z`;
}
