/**
 * The redacted receipt of a prompt import (spec 2.9), decoded by `status`. What the spec
 * documents is decoded strictly; what it leaves open (provenance placement and shape, the
 * classifier-version field, where validation counts sit, operation error codes beyond its
 * list, other fields) is decoded loosely and kept, so a receipt the server accepted is never
 * undecodable for a part the spec does not show. The importer keeps the raw receipt besides.
 */
import { z } from 'zod';
import { MAX_COUNT } from './keys.ts';
import {
  dataEnvelope,
  looseRecord,
  promptImportIdSchema,
  requestMetaSchema,
  timestampSchema,
  websiteIdSchema,
} from './common.ts';
import { mustBe } from './issue-message.ts';
import { clientIdSchema } from './prompt-import.ts';

export const IMPORT_PHASES = ['validating', 'classifying', 'committing'] as const;
export const DUPLICATE_CODES = [
  'skipped_request_duplicate',
  'skipped_active_duplicate',
  'skipped_inactive_duplicate',
] as const;
/** Operation error codes spec part 7 lists; a failed receipt may carry others (decoded as text). */
export const IMPORT_ERROR_CODES = [
  'prompt_limit_exceeded',
  'classification_failed',
  'classification_unavailable',
  'commit_conflict',
  'processing_deadline_exceeded',
  'internal_processing_error',
] as const;

const oneOf = <Value extends string>(values: readonly [Value, ...Value[]]) =>
  z.enum(values, { error: mustBe(`one of ${values.join(', ')}`) });
const tally = z
  .int({ error: mustBe(`an integer from 0 to ${MAX_COUNT}`) })
  .min(0)
  .max(MAX_COUNT);
/** A field the spec rules out where it stands (a receipt never holds prompt text; no code without a status that has one). */
const notAllowed = z.never({ error: () => 'is not an allowed field' }).optional();

/**
 * Receipt items (spec 2.9): index, client_id when supplied, status, and a code where the
 * status has one, decoded strictly; whether `not_processed` carries a code is not shown:
 * optional. Field provenance sits on created and would-create items in a place and shape the
 * spec does not show (2.8 rule 5), so other fields pass and are kept; prompt text never does.
 */
const item = <Shape extends z.core.$ZodLooseShape>(shape: Shape) =>
  looseRecord({ index: tally, client_id: clientIdSchema.optional(), prompt_text: notAllowed, ...shape });

export const promptImportItemResultSchema = z.discriminatedUnion(
  'status',
  [
    item({ status: z.literal('created'), code: notAllowed }),
    item({ status: z.literal('would_create'), code: notAllowed }),
    item({ status: z.literal('skipped'), code: oneOf(DUPLICATE_CODES) }),
    item({
      status: z.literal('failed'),
      code: z.literal('classification_failed', { error: mustBe('classification_failed') }),
    }),
    item({ status: z.literal('not_processed'), code: z.string({ error: mustBe('a string') }).optional() }),
  ],
  { error: discriminatorError('status') },
);
export type PromptImportItemResult = z.infer<typeof promptImportItemResultSchema>;

/**
 * Summaries. A write reports `created`, every summary `skipped_duplicates` (spec 2.9). The
 * duplicate breakdown that adds up to it has names the spec does not show, and where a
 * validation reports `would_create`, `active_count`, `projected_active_count`, `prompt_limit`
 * is not shown either: in the summary they must be counts, elsewhere they are kept as sent.
 */
const validationCounts = {
  would_create: tally.optional(),
  active_count: tally.optional(),
  projected_active_count: tally.optional(),
  prompt_limit: tally.optional(),
};
export const writeSummarySchema = looseRecord({ created: tally, skipped_duplicates: tally });
export const validationSummarySchema = looseRecord({ ...validationCounts, skipped_duplicates: tally });
/** A failed receipt's "safe summary" is not shown: any of the counts, none required. */
export const failedSummarySchema = looseRecord({
  ...validationCounts,
  created: tally.optional(),
  skipped_duplicates: tally.optional(),
});

/**
 * The operation error: a code (spec 7 lists six; a server may add more, decoded as text),
 * `retryable`, and `retry_strategy` when a fresh operation may succeed. Its other fields are
 * not shown; the loose object keeps them.
 */
export const importErrorSchema = looseRecord({
  code: z
    .string({ error: mustBe('an operation error code') })
    .min(1)
    .describe(`One of ${IMPORT_ERROR_CODES.join(', ')} (spec part 7), or a code the spec does not list.`),
  retryable: z.boolean({ error: mustBe('true or false') }),
  retry_strategy: z.literal('new_idempotency_key', { error: mustBe('new_idempotency_key') }).optional(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

const receiptShape = {
  id: promptImportIdSchema,
  object: z.literal('prompt_import', { error: mustBe('prompt_import') }),
  website_id: websiteIdSchema,
  validate_only: z.boolean({ error: mustBe('true or false') }),
  created_at: timestampSchema,
  expires_at: timestampSchema,
};
const items = z.array(promptImportItemResultSchema, { error: mustBe('an array') });

/** A succeeded receipt's summary depends on the operation: a validation or a write. */
const succeeded = (validateOnly: boolean, summary: z.ZodType) =>
  looseRecord({
    ...receiptShape,
    status: z.literal('succeeded'),
    validate_only: z.literal(validateOnly),
    summary,
    items,
    completed_at: timestampSchema,
  });

export const promptImportReceiptSchema = z.discriminatedUnion(
  'status',
  [
    looseRecord({ ...receiptShape, status: z.literal('pending') }),
    looseRecord({
      ...receiptShape,
      status: z.literal('processing'),
      phase: oneOf(IMPORT_PHASES),
      started_at: timestampSchema,
    }),
    z.discriminatedUnion(
      'validate_only',
      [succeeded(false, writeSummarySchema), succeeded(true, validationSummarySchema)],
      { error: discriminatorError('validate_only') },
    ),
    looseRecord({
      ...receiptShape,
      status: z.literal('failed'),
      error: importErrorSchema,
      items,
      summary: failedSummarySchema.optional(),
      completed_at: timestampSchema,
    }),
  ],
  { error: discriminatorError('status') },
);
export type PromptImportReceipt = z.infer<typeof promptImportReceiptSchema>;

/** `{ data: receipt, meta }` of the POST (202/200) and of the receipt GET. */
export const promptImportReceiptEnvelopeSchema = dataEnvelope(promptImportReceiptSchema, requestMetaSchema);

/**
 * zod reports an unknown discriminator at the discriminator's path with the whole object as
 * input; this names the allowed values and shows only the offending field.
 */
function discriminatorError(field: string) {
  return (issue: z.core.$ZodRawIssue) => {
    const input = issue.input;
    if (issue.code !== 'invalid_union' || typeof input !== 'object' || input === null)
      return mustBe('an object')(issue);
    const options = 'options' in issue && Array.isArray(issue.options) ? issue.options.join(', ') : '';
    return mustBe(`one of ${options}`)({ input: (input as Record<string, unknown>)[field] });
  };
}
