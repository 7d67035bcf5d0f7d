/** A decimal integer from a warehouse as the logical int64 value: a number while it is exact, a bigint beyond 2^53. */
export function int64FromText(text: string): number | bigint {
  const value = BigInt(text);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}
