/**
 * The `deep_records` variant: a record with one more field, `extensions`, nested 5,000 levels
 * deep (`{"level":{"level":...{}}}`). Legal (objects may carry additional fields), and deeper
 * than V8's recursive JSON helpers can follow, so a client must neither crash on it nor lose
 * the rest of its page.
 */

export const DEEP_FIELD_LEVELS = 5000;

/** The record with `extensions` nested `DEEP_FIELD_LEVELS` deep, built without recursion. */
export function withDeepField(record: Record<string, unknown>): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 1; level < DEEP_FIELD_LEVELS; level++) value = { level: value };
  return { ...record, extensions: value };
}
