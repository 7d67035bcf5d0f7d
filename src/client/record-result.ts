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

/**
 * A snapshot response (`{data, meta}`), checked whole as one record: too deep, `data` or `meta`
 * breaking its schema is its reason. `envelope` is the response body with integers beyond 2^53
 * exact; a snapshot is small, so its schemas check the same values.
 */
export function validateSnapshot<Data, Meta>(
  schemas: { readonly dataSchema: z.ZodType<Data>; readonly metaSchema: z.ZodType<Meta> },
  envelope: { readonly data?: unknown; readonly meta?: unknown },
): RecordResult<{ data: Data; meta: Meta }> {
  if (nestsDeeperThan(envelope.data, MAX_RECORD_DEPTH) || nestsDeeperThan(envelope.meta, MAX_RECORD_DEPTH))
    return { ok: false, raw: envelope, error: TOO_DEEP };
  const data = schemas.dataSchema.safeParse(envelope.data);
  if (!data.success) return { ok: false, raw: envelope, error: formatIssues(data.error) };
  const meta = schemas.metaSchema.safeParse(envelope.meta);
  if (!meta.success) return { ok: false, raw: envelope, error: `meta: ${formatIssues(meta.error)}` };
  return { ok: true, value: { data: data.data, meta: meta.data }, raw: envelope };
}
