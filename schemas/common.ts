/**
 * Building blocks of every V2 resource (spec 2, 2.1): typed identifiers, timestamps and the
 * `{ data, meta }` envelopes. Response objects are loose: unknown fields pass and are kept,
 * because the spec lets the API add fields and `_raw` must hold the record as sent.
 */
import { z } from 'zod';
import { MAX_COUNT } from './keys.ts';
import { mustBe, mustBeOrNull } from './issue-message.ts';

/** zod's calendar-aware date (leap years, 30-day months), without its anchors. */
const DATE = z.core.regexes.date.source.slice(1, -1);
const HH_MM = '(?:[01]\\d|2[0-3]):[0-5]\\d';
/**
 * Every UTC form the spec writes: its date-time fields (2) and its `updated_since` query form
 * (4.4, `YYYY-MM-DDThh:mm[:ss[.fraction]]Z`). Seconds may be absent and the fraction has any
 * number of digits: a server may send `2026-01-01T10:00Z` or nanoseconds, and both are legal.
 * Leap second `:60` is refused: neither JS nor most warehouses can hold it.
 */
export const UTC_TIMESTAMP = new RegExp(`^${DATE}T${HH_MM}(?::[0-5]\\d(?:\\.\\d+)?)?Z$`);
const TIMESTAMP_RULE = 'a UTC timestamp YYYY-MM-DDThh:mm[:ss[.fraction]]Z on a real calendar date';

/**
 * A response timestamp. It stays the exact string: the engine stores `scan_upper_bound`
 * verbatim, and a Date round trip would drop sub-millisecond digits. `format: date-time` in the
 * contract says what it is, so a served contract that says the same is no type change.
 */
export const timestampSchema = z
  .string({ error: mustBe(TIMESTAMP_RULE) })
  .regex(UTC_TIMESTAMP)
  .meta({ format: 'date-time' });
export type Timestamp = z.infer<typeof timestampSchema>;
/** A timestamp that is required but null until the event happened. */
export const nullableTimestampSchema = z
  .string({ error: mustBeOrNull(TIMESTAMP_RULE) })
  .regex(UTC_TIMESTAMP)
  .meta({ format: 'date-time' })
  .nullable();

/** The `updated_since` query form (spec 4.4): the same forms as every timestamp. */
export const updatedSinceSchema = timestampSchema;
export type UpdatedSince = z.infer<typeof updatedSinceSchema>;

const typedId = (prefix: string, what: string) =>
  z
    .string({ error: mustBe(`${what} id: ${prefix} then letters, digits, _ or -, at most 128 characters`) })
    .max(128)
    .regex(new RegExp(`^${prefix}[A-Za-z0-9_-]+$`));

export const websiteIdSchema = typedId('web_', 'a website');
export const analysisIdSchema = typedId('ana_', 'an analysis');
export const mentionIdSchema = typedId('men_', 'a mention');
/** The spec names only the `pim_` prefix; we assume the other ids' character set. */
export const promptImportIdSchema = typedId('pim_', 'a prompt import');
export type WebsiteId = z.infer<typeof websiteIdSchema>;
export type AnalysisId = z.infer<typeof analysisIdSchema>;
export type MentionId = z.infer<typeof mentionIdSchema>;
export type PromptImportId = z.infer<typeof promptImportIdSchema>;

export const requestIdSchema = z
  .string({ error: mustBe('a request id of 1 to 128 letters, digits, ".", "_" or "-"') })
  .regex(/^[A-Za-z0-9._-]{1,128}$/);
export type RequestId = z.infer<typeof requestIdSchema>;

/** Provider names of entries and mentions (spec 2.3): lowercase words joined by - or _. */
export const providerNameSchema = z
  .string({ error: mustBe('a provider name of 1 to 128 lowercase letters and digits, words joined by - or _') })
  .max(128)
  .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/);

/**
 * A string of `min` to `max` characters, counted in Unicode code points as JSON Schema's
 * `minLength`/`maxLength` do (zod's own `.max` counts UTF-16 units and would refuse emoji early).
 */
export const textSchema = (min: number, max: number) => text(min, max, mustBe(lengthRule(min, max)));
/** `textSchema` that is required but may be null. */
export const nullableTextSchema = (min: number, max: number) =>
  text(min, max, mustBeOrNull(lengthRule(min, max))).nullable();

const lengthRule = (min: number, max: number) => `a string of ${min} to ${max} characters`;
const text = (min: number, max: number, error: (issue: { input?: unknown }) => string) =>
  z
    .string({ error })
    .refine((value) => {
      const length = codePoints(value);
      return length >= min && length <= max;
    })
    .meta({ minLength: min, maxLength: max });

/** Length in Unicode code points (what the spec and JSON Schema call characters). */
export function codePoints(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** A count: an exact integer up to 2^53 - 1, or null when not measured (spec 2.3). */
export const countSchema = z
  .int({ error: mustBeOrNull(`an integer from 0 to ${MAX_COUNT}`) })
  .min(0)
  .max(MAX_COUNT)
  .nullable();

/** A metric on a 0..100 scale (and a mention's sentiment), null when not measured. */
export const percentSchema = z
  .number({ error: mustBeOrNull('a number from 0 to 100') })
  .min(0)
  .max(100)
  .nullable();

/** A loose object whose absence or wrong type reads "is missing" / "must be an object". */
export const looseRecord = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  z.looseObject(shape, { error: mustBe('an object') });

/** `meta` of every success and error envelope. */
export const requestMetaSchema = looseRecord({ request_id: requestIdSchema });
export type RequestMeta = z.infer<typeof requestMetaSchema>;

/** `meta` of a list page (spec 2.1): `next_cursor` must be present even when null. */
export const listMetaSchema = looseRecord({
  request_id: requestIdSchema,
  has_more: z.boolean({ error: mustBe('true or false') }),
  next_cursor: z.string({ error: mustBeOrNull('a cursor string') }).nullable(),
  scan_upper_bound: timestampSchema.optional(),
});
export type ListMeta = z.infer<typeof listMetaSchema>;

/**
 * A list page. `data` stays unknown here: the paginator validates each record on its own, so
 * one bad record goes to `_aivis_rejected` instead of failing its whole page.
 */
export const listEnvelopeSchema = looseRecord({
  data: z.array(z.unknown(), { error: mustBe('an array') }),
  meta: listMetaSchema,
});
export type ListEnvelope = z.infer<typeof listEnvelopeSchema>;

/**
 * `{ data, meta }` of a single-resource response.
 * @example dataEnvelope(websiteSchema, requestMetaSchema) // GET /websites/{website_id}
 */
export const dataEnvelope = <Data extends z.ZodType, Meta extends z.ZodType>(data: Data, meta: Meta) =>
  looseRecord({ data, meta });
