/**
 * BigQuery's TIMESTAMP holds microseconds, and every parser BigQuery has refuses a seventh
 * fraction digit rather than truncating or rounding it (DuckDB, under the stand-in, silently
 * rounds, which is how nanoseconds once went unnoticed). The refusals, in BigQuery's words:
 * - a load job (NDJSON): "Could not parse '...' as a timestamp. Required format is
 *   YYYY-MM-DD HH:MM[:SS[.SSSSSS]]", with the row's position, field and value;
 * - a query parameter or a string cast: "Invalid timestamp: '...'" (GoogleSQL's string to
 *   TIMESTAMP conversion, which fails when there are more sub-second digits than the scale);
 * - a `TIMESTAMP '...'` literal: "Invalid TIMESTAMP literal".
 * BigQuery's data types reference gives the fraction as "up to six fractional digits
 * (microsecond precision)".
 */

/** `2026-01-02T03:04:05.1234567Z`: a fraction of seven or more digits after the seconds. */
const BEYOND_MICROSECONDS = /^\s*\d{4}-\d{1,2}-\d{1,2}[T ]\d{1,2}:\d{2}:\d{2}\.\d{7,}/i;

export function beyondMicroseconds(text: string): boolean {
  return BEYOND_MICROSECONDS.test(text);
}

export function loadTimestampMessage(position: number, field: string, value: string): string {
  return (
    `Error while reading data, error message: JSON parsing error in row starting at position ${position}: ` +
    `Could not parse '${value}' as a timestamp. Required format is YYYY-MM-DD HH:MM[:SS[.SSSSSS]] Field: ${field}; Value: ${value}`
  );
}

export function parameterTimestampMessage(value: string): string {
  return `Invalid timestamp: '${value}'`;
}

export const LITERAL_TIMESTAMP_MESSAGE = 'Invalid TIMESTAMP literal';
