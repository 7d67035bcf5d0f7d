import { describe, expect, it } from 'vitest';
import {
  promptImportItemResultSchema,
  promptImportReceiptEnvelopeSchema,
  promptImportReceiptSchema,
} from '../../schemas/index.ts';
import { receipts, withField } from './fixtures.ts';
import { outcome } from './parse-result.ts';

describe('promptImportReceiptSchema', () => {
  it.each(Object.entries(receipts))('accepts a %s receipt and preserves unknown fields', (_status, make) => {
    const receipt = { ...make(), classifier_version: 'prompt-classifier-v1' };
    expect(promptImportReceiptSchema.parse(receipt)).toEqual(receipt);
  });

  it('accepts a failed receipt with a safe summary and a non-retryable error', () => {
    const receipt = {
      ...receipts.failed(),
      error: { code: 'prompt_limit_exceeded', retryable: false, message: 'kept' },
      summary: { created: 0, skipped_duplicates: 2, duplicates_by_kind: { request: 1, active: 1, inactive: 0 } },
    };
    expect(promptImportReceiptSchema.parse(receipt)).toEqual(receipt);
  });

  it('decodes the parts the spec does not show loosely and keeps them: provenance anywhere, the classifier version, validation counts elsewhere, new error codes', () => {
    const validated = {
      ...receipts.validated(),
      summary: { skipped_duplicates: 0, by_kind: { request: 0, active: 0, inactive: 0 } },
      capacity: { would_create: 1, active_count: 10, projected_active_count: 11, prompt_limit: 50 },
      classifier: { version: 'prompt-classifier-v2' },
      items: [
        {
          index: 0,
          status: 'would_create',
          classification: { provenance: [{ field: 'language', source: 'derived', confidence: 0.9 }] },
          warnings: [],
        },
      ],
    };
    expect(promptImportReceiptSchema.parse(validated)).toEqual(validated);
    const failed = {
      ...receipts.failed(),
      error: { code: 'quota_window_exhausted', retryable: true, retry_strategy: 'new_idempotency_key', window: 'hour' },
    };
    expect(promptImportReceiptSchema.parse(failed)).toEqual(failed);
    const provenanceOnItem = withField(receipts.succeeded(), 'items.0.provenance', { language: 'derived' });
    expect(promptImportReceiptSchema.parse(provenanceOnItem)).toEqual(provenanceOnItem);
  });

  it('wraps in { data, meta }', () => {
    expect(outcome(promptImportReceiptEnvelopeSchema, { data: receipts.pending(), meta: { request_id: 'r' } })).toBe(
      'ok',
    );
    expect(outcome(promptImportReceiptEnvelopeSchema, { data: receipts.pending(), meta: {} })).toBe(
      'meta.request_id: is missing',
    );
  });

  it.each([
    [
      receipts.pending(),
      'status',
      'done',
      'status: must be one of pending, processing, succeeded, failed (got "done")',
    ],
    [receipts.pending(), 'status', undefined, 'status: is missing'],
    [receipts.pending(), 'object', 'import', 'object: must be prompt_import (got "import")'],
    [
      receipts.pending(),
      'id',
      'imp_1',
      'id: must be a prompt import id: pim_ then letters, digits, _ or -, at most 128 characters (got "imp_1")',
    ],
    [receipts.pending(), 'expires_at', undefined, 'expires_at: is missing'],
    [
      receipts.processing(),
      'phase',
      'queued',
      'phase: must be one of validating, classifying, committing (got "queued")',
    ],
    [receipts.processing(), 'started_at', undefined, 'started_at: is missing'],
    [receipts.succeeded(), 'validate_only', 'no', 'validate_only: must be one of false, true (got "no")'],
    [receipts.succeeded(), 'summary.created', undefined, 'summary.created: is missing'],
    [
      receipts.succeeded(),
      'summary.skipped_duplicates',
      -1,
      'summary.skipped_duplicates: must be an integer from 0 to 9007199254740991 (got -1)',
    ],
    [receipts.succeeded(), 'completed_at', undefined, 'completed_at: is missing'],
    [receipts.succeeded(), 'items', undefined, 'items: is missing'],
    [
      receipts.validated(),
      'summary.prompt_limit',
      null,
      'summary.prompt_limit: must be an integer from 0 to 9007199254740991 (got null)',
    ],
    [
      receipts.validated(),
      'summary.projected_active_count',
      1.5,
      'summary.projected_active_count: must be an integer from 0 to 9007199254740991 (got 1.5)',
    ],
    [receipts.failed(), 'error', undefined, 'error: is missing'],
    [receipts.failed(), 'error.code', '', 'error.code: must be an operation error code (got "")'],
    [receipts.failed(), 'error.code', undefined, 'error.code: is missing'],
    [receipts.failed(), 'error.retryable', undefined, 'error.retryable: is missing'],
    [
      receipts.failed(),
      'error.retry_strategy',
      'same_key',
      'error.retry_strategy: must be new_idempotency_key (got "same_key")',
    ],
  ])('%#: %s = %j is rejected', (receipt, path, value, message) => {
    expect(outcome(promptImportReceiptSchema, withField(receipt, path, value))).toBe(message);
  });
});

describe('promptImportItemResultSchema (closed shape, decoded by status)', () => {
  it.each([
    [{ index: 0, status: 'created' }],
    [{ index: 1, client_id: 'row-2', status: 'would_create' }],
    [{ index: 2, status: 'skipped', code: 'skipped_request_duplicate' }],
    [{ index: 3, status: 'skipped', code: 'skipped_inactive_duplicate' }],
    [{ index: 4, client_id: 'r', status: 'failed', code: 'classification_failed' }],
    [{ index: 5, status: 'not_processed' }],
  ])('accepts %j', (value) => {
    expect(promptImportItemResultSchema.parse(value)).toEqual(value);
  });

  it.each([
    [{ index: 0, status: 'created', prompt_text: 'leak' }, 'prompt_text: is not an allowed field'],
    [{ index: 0, status: 'created', code: 'x' }, 'code: is not an allowed field'],
    [{ index: 0, status: 'skipped' }, 'code: is missing'],
    [
      { index: 0, status: 'skipped', code: 'skipped_duplicate' },
      'code: must be one of skipped_request_duplicate, skipped_active_duplicate, skipped_inactive_duplicate (got "skipped_duplicate")',
    ],
    [
      { index: 0, status: 'failed', code: 'prompt_limit_exceeded' },
      'code: must be classification_failed (got "prompt_limit_exceeded")',
    ],
    [{ index: -1, status: 'created' }, 'index: must be an integer from 0 to 9007199254740991 (got -1)'],
    [{ status: 'created' }, 'index: is missing'],
    [
      { index: 0, status: 'rejected' },
      'status: must be one of created, would_create, skipped, failed, not_processed (got "rejected")',
    ],
    ['created', 'must be an object (got "created")'],
  ])('rejects %j', (value, message) => {
    expect(outcome(promptImportItemResultSchema, value)).toBe(message);
  });

  it('names the item inside a receipt', () => {
    const receipt = withField(receipts.succeeded(), 'items.1.code', undefined);
    expect(outcome(promptImportReceiptSchema, receipt)).toBe('items[1].code: is missing');
  });
});
