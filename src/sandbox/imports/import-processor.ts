/**
 * Runs one accepted import to its terminal outcome: dedup, classification, prompt limit,
 * commit. Atomic (spec part 3 rule 3): prompts are added to the store only on success of a
 * write; any failure leaves the store as it was and item results are diagnostic only.
 */
import { normalizeText } from '../../../schemas/prompt-import.ts';
import type { ImportRequest } from './import-request.ts';
import {
  duplicateSummary,
  nothingProcessed,
  operationError,
  withClientId,
  type ImportOutcome,
  type OperationErrorCode,
  type ReceiptItem,
} from './import-outcome.ts';
import { resolveItem, type ResolvedItem } from './item-resolution.ts';
import type { PromptStore } from './prompt-store.ts';

export interface ProcessInput {
  readonly importId: string;
  readonly websiteId: string;
  readonly request: ImportRequest;
  /** A switched-on fault this operation hits (retryable operation errors). */
  readonly fault?: OperationErrorCode;
}

function fail(code: OperationErrorCode, items: ReceiptItem[], summary?: ImportOutcome['summary']): ImportOutcome {
  const failedItems = items.map((item) =>
    item.status === 'skipped' || item.status === 'failed'
      ? item
      : { ...withClientId(item.index, item.client_id), status: 'not_processed' as const },
  );
  return summary
    ? { status: 'failed', items: failedItems, error: operationError(code), summary }
    : { status: 'failed', items: failedItems, error: operationError(code) };
}

export function processImport(input: ProcessInput, store: PromptStore): ImportOutcome {
  const { request, websiteId } = input;
  const seen = new Set<string>();
  const items: ReceiptItem[] = [];
  const candidates: { index: number; normalized: string; resolved: ResolvedItem }[] = [];
  request.items.forEach((item, index) => {
    const base = withClientId(index, item.client_id);
    const normalized = normalizeText(item.prompt_text);
    const existing = store.find(websiteId, normalized);
    if (seen.has(normalized)) items.push({ ...base, status: 'skipped', code: 'skipped_request_duplicate' });
    else if (existing)
      items.push({
        ...base,
        status: 'skipped',
        code: existing.active ? 'skipped_active_duplicate' : 'skipped_inactive_duplicate',
      });
    else {
      const resolved = resolveItem(item, request.defaults, request.classification.mode);
      candidates.push({ index, normalized, resolved });
      items.push(
        resolved.failedFields.length
          ? { ...base, status: 'failed', code: 'classification_failed' }
          : { ...base, status: request.validate_only ? 'would_create' : 'created', provenance: resolved.provenance },
      );
    }
    seen.add(normalized);
  });

  if (input.fault === 'classification_unavailable' && request.classification.mode === 'auto')
    return fail(input.fault, nothingProcessed(items));
  const failedCount = items.filter((item) => item.status === 'failed').length;
  if (failedCount) return fail('classification_failed', items, { failed: failedCount, ...duplicateSummary(items) });

  const activeCount = store.activeCount(websiteId);
  const promptLimit = store.promptLimit(websiteId);
  const capacity = {
    active_count: activeCount,
    projected_active_count: activeCount + candidates.length,
    prompt_limit: promptLimit,
  };
  if (capacity.projected_active_count > promptLimit) {
    return fail('prompt_limit_exceeded', items, {
      ...(request.validate_only ? { would_create: 0 } : { created: 0 }),
      ...duplicateSummary(items),
      ...capacity,
    });
  }
  if (request.validate_only)
    return {
      status: 'succeeded',
      items,
      summary: { would_create: candidates.length, ...duplicateSummary(items), ...capacity },
    };
  if (input.fault) return fail(input.fault, nothingProcessed(items));

  for (const candidate of candidates) {
    store.add(websiteId, candidate.normalized, {
      active: true,
      source: 'public_api_v2',
      importId: input.importId,
      fields: candidate.resolved.values,
    });
  }
  return { status: 'succeeded', items, summary: { created: candidates.length, ...duplicateSummary(items) } };
}
