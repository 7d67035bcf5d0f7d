/**
 * One record of a page, checked on its own: a record that breaks the documented schema is
 * reported with its reason and kept (`raw`), never dropped and never fatal to its page.
 */
import type { z } from 'zod';
import { formatIssues } from '../../schemas/format-issues.ts';

export type RecordResult<T> = { ok: true; value: T; raw: unknown } | { ok: false; raw: unknown; error: string };

/**
 * @param value the record with plain JS numbers (what the schema checks)
 * @param raw the same record with integers beyond 2^53 exact (what `_raw` keeps)
 */
export function validateRecord<T>(schema: z.ZodType<T>, value: unknown, raw: unknown): RecordResult<T> {
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data, raw } : { ok: false, raw, error: formatIssues(parsed.error) };
}
