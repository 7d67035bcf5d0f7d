/**
 * The terminal result of an import operation as the receipt shows it (spec 2.9): ordered
 * items, a summary, and for a failure the operation error. Closed shapes, no prompt content.
 */
import type { FieldProvenance, ClassifiedField } from './item-resolution.ts';

export const DUPLICATE_CODES = [
  'skipped_request_duplicate',
  'skipped_active_duplicate',
  'skipped_inactive_duplicate',
] as const;
export type DuplicateCode = (typeof DUPLICATE_CODES)[number];

export type ReceiptItemStatus = 'created' | 'would_create' | 'skipped' | 'failed' | 'not_processed';

/** One receipt item; `provenance` only on `created` / `would_create`. */
export interface ReceiptItem {
  index: number;
  client_id?: string;
  status: ReceiptItemStatus;
  code?: DuplicateCode | 'classification_failed';
  provenance?: Partial<Record<ClassifiedField, FieldProvenance>>;
}

/** Operation errors of spec part 7, with whether a fresh operation may succeed. */
export const OPERATION_ERRORS = {
  prompt_limit_exceeded: {
    retryable: false,
    message:
      'The import would make active prompts exceed the website prompt_limit; free capacity, then validate and import again.',
  },
  classification_failed: {
    retryable: false,
    message:
      'Required fields of some items could not be classified confidently; correct them or use classification mode provided_only.',
  },
  classification_unavailable: {
    retryable: true,
    message: 'The classifier is unavailable; retry the whole batch with a new Idempotency-Key.',
  },
  commit_conflict: {
    retryable: true,
    message: 'The commit conflicted with a concurrent change; retry the whole batch with a new Idempotency-Key.',
  },
  processing_deadline_exceeded: {
    retryable: true,
    message: 'Processing did not finish within 30 minutes; retry the whole batch with a new Idempotency-Key.',
  },
  internal_processing_error: {
    retryable: true,
    message: 'Processing failed unexpectedly; retry the whole batch with a new Idempotency-Key.',
  },
  /** Not in spec part 7: a code a server may add, served only under the `receipts_with_extra_fields` variant. */
  quota_window_exhausted: {
    retryable: true,
    message: 'The import allowance of this hour is used up; retry the whole batch with a new Idempotency-Key later.',
  },
} as const;
export type OperationErrorCode = keyof typeof OPERATION_ERRORS;

export interface OperationError {
  code: OperationErrorCode;
  message: string;
  retryable: boolean;
  retry_strategy?: 'new_idempotency_key';
}

export interface ImportOutcome {
  status: 'succeeded' | 'failed';
  items: ReceiptItem[];
  summary?: Record<string, number | Record<string, number>>;
  error?: OperationError;
}

export function operationError(code: OperationErrorCode): OperationError {
  const { retryable, message } = OPERATION_ERRORS[code];
  return retryable ? { code, message, retryable, retry_strategy: 'new_idempotency_key' } : { code, message, retryable };
}

/** `skipped_duplicates` and its breakdown by code; the parts add up to the total. */
export function duplicateSummary(items: readonly ReceiptItem[]): {
  skipped_duplicates: number;
  skipped_duplicates_breakdown: Record<DuplicateCode, number>;
} {
  const breakdown = Object.fromEntries(DUPLICATE_CODES.map((code) => [code, 0])) as Record<DuplicateCode, number>;
  for (const item of items)
    if (item.status === 'skipped' && item.code && item.code in breakdown) breakdown[item.code as DuplicateCode]++;
  return {
    skipped_duplicates: DUPLICATE_CODES.reduce((sum, code) => sum + breakdown[code], 0),
    skipped_duplicates_breakdown: breakdown,
  };
}

export const withClientId = (index: number, clientId: string | undefined): Pick<ReceiptItem, 'index' | 'client_id'> =>
  clientId === undefined ? { index } : { index, client_id: clientId };

/** Item results of an operation that failed before looking at any item. */
export const nothingProcessed = (items: readonly { client_id?: string }[]): ReceiptItem[] =>
  items.map(({ client_id }, index) => ({ ...withClientId(index, client_id), status: 'not_processed' }));
