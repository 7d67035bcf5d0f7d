/**
 * One record of a page, checked on its own: a record that breaks the documented schema, or
 * nests deeper than any warehouse's JSON holds, is reported with its reason and kept (`raw`),
 * never dropped and never fatal to its page.
 */
import type { z } from 'zod';
import { formatIssues } from '../../schemas/format-issues.ts';
import { MAX_RECORD_DEPTH, nestsDeeperThan } from '../json/nesting-depth.ts';

export type RecordResult<T> = { ok: true; value: T; raw: unknown } | { ok: false; raw: unknown; error: string };

/** Why a record nested deeper than `MAX_RECORD_DEPTH` is rejected without being validated. */
export const TOO_DEEP = `nested deeper than ${MAX_RECORD_DEPTH} levels of objects and arrays, the most aivis stores`;

/**
 * @param value the record with plain JS numbers (what the schema checks)
 * @param raw the same record with integers beyond 2^53 exact (what `_raw` keeps)
 */
export function validateRecord<T>(schema: z.ZodType<T>, value: unknown, raw: unknown): RecordResult<T> {
  if (nestsDeeperThan(value, MAX_RECORD_DEPTH)) return { ok: false, raw, error: TOO_DEEP };
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data, raw } : { ok: false, raw, error: formatIssues(parsed.error) };
}
