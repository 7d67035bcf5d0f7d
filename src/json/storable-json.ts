/**
 * JSON text for a `json` column (`_raw` of a rejected record) whatever the value: the value
 * itself, or, when it nests deeper than `MAX_RECORD_DEPTH`, a JSON string holding its exact
 * text. No warehouse's JSON type takes thousands of levels (BigQuery stops at 500), and
 * `JSON.stringify` overflows the stack on them; the text loses nothing.
 */
import { MAX_RECORD_DEPTH, nestsDeeperThan } from './nesting-depth.ts';
import { serializeJson } from './serialize-json.ts';

export function storableJson(value: unknown): string {
  return nestsDeeperThan(value, MAX_RECORD_DEPTH)
    ? JSON.stringify(serializeJson(value))
    : JSON.stringify(value ?? null);
}
