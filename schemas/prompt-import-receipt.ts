/**
 * The redacted receipt of a prompt import (spec 2.9), decoded by `status`. Receipts never
 * carry prompt text or classification values, so none of these schemas has a field for them.
 */
import { z } from 'zod';
import { MAX_COUNT } from './keys.ts';
import { dataEnvelope, looseRecord, promptImportIdSchema, requestMetaSchema, timestampSchema, websiteIdSchema } from './common.ts';
import { mustBe } from './issue-message.ts';
import { clientIdSchema } from './prompt-import.ts';

export const IMPORT_PHASES = ['validating', 'classifying', 'committing'] as const;
export const DUPLICATE_CODES = ['skipped_request_duplicate', 'skipped_active_duplicate', 'skipped_inactive_duplicate'] as const;
/** Operation error codes of a failed receipt (spec 7). */
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
const tally = z.int({ error: mustBe(`an integer from 0 to ${MAX_COUNT}`) }).min(0).max(MAX_COUNT);

/**
 * Receipt items have a closed shape (spec 2.9): index, client_id when supplied, status, and a
 * code where the status has one. Whether `not_processed` carries a code is not shown: optional.
 */
const item = <Shape extends z.core.$ZodShape>(shape: Shape) =>
  z.strictObject({ index: tally, client_id: clientIdSchema.optional(), ...shape }, { error: mustBe('an object') });

/**
 * Field provenance on created and would-create items (spec 2.8 rule 5). Its placement is not
 * shown; the sandbox puts it on the item as `provenance: { <field>: { source, confidence? } }`.
 * Sources only, never values, so it keeps receipts free of classification content.
 */
const provenanceSchema = z.record(
  z.string(),
  z.strictObject({
    source: oneOf(['provided', 'defaulted', 'derived', 'not_applicable', 'low_confidence']),
    confidence: z.number({ error: mustBe('a number from 0 to 1') }).min(0).max(1).optional(),
  }),
);

export const promptImportItemResultSchema = z.discriminatedUnion(
  'status',
  [
    item({ status: z.literal('created'), provenance: provenanceSchema.optional() }),
    item({ status: z.literal('would_create'), provenance: provenanceSchema.optional() }),
    item({ status: z.literal('skipped'), code: oneOf(DUPLICATE_CODES) }),
    item({ status: z.literal('failed'), code: z.literal('classification_failed', { error: mustBe('classification_failed') }) }),
    item({ status: z.literal('not_processed'), code: z.string({ error: mustBe('a string') }).optional() }),
  ],
  { error: discriminatorError('status') },
);
export type PromptImportItemResult = z.infer<typeof promptImportItemResultSchema>;

/**
 * Summaries. The duplicate breakdown that adds up to `skipped_duplicates` has field names the
 * spec does not show, so it is neither required nor summed here; loose objects keep it.
 */
export const writeSummarySchema = looseRecord({ created: tally, skipped_duplicates: tally });
export const validationSummarySchema = looseRecord({
  would_create: tally,
  active_count: tally,
  projected_active_count: tally,
  prompt_limit: tally,
  skipped_duplicates: tally,
});
/** A failed receipt's "safe summary" is not shown: any of the counts, none required. */
export const failedSummarySchema = looseRecord({
  created: tally.optional(),
  would_create: tally.optional(),
  active_count: tally.optional(),
  projected_active_count: tally.optional(),
  prompt_limit: tally.optional(),
  skipped_duplicates: tally.optional(),
});

/** Other fields of this error object are not shown; the loose object keeps them. */
export const importErrorSchema = looseRecord({
  code: oneOf(IMPORT_ERROR_CODES),
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
    looseRecord({ ...receiptShape, status: z.literal('processing'), phase: oneOf(IMPORT_PHASES), started_at: timestampSchema }),
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
    if (issue.code !== 'invalid_union' || typeof input !== 'object' || input === null) return mustBe('an object')(issue);
    const options = 'options' in issue && Array.isArray(issue.options) ? issue.options.join(', ') : '';
    return mustBe(`one of ${options}`)({ input: (input as Record<string, unknown>)[field] });
  };
}
