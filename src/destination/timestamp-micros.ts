/** Microseconds since the epoch as the logical timestamp form: ISO-8601 UTC with six fractional digits. */
export function isoFromMicros(micros: bigint): string {
  // Floor, not truncate: before 1970 the fraction still counts forward from a whole second.
  const fraction = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const seconds = (micros - fraction) / 1_000_000n;
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction.toString().padStart(6, '0')}Z`;
}
