/**
 * Item results of a receipt, counted by what a user asks: created, would create, skipped by
 * each duplicate code, failed, not processed. Counted from the items, so the numbers hold
 * whatever the summary's field names are.
 */
import type { PromptImportItemResult } from '../../schemas/prompt-import-receipt.ts';
import type { ResultCounts } from './import-journal.ts';

export const COUNT_NAMES = [
  'created',
  'would_create',
  'skipped_request_duplicate',
  'skipped_active_duplicate',
  'skipped_inactive_duplicate',
  'failed',
  'not_processed',
] as const;

export function emptyCounts(): ResultCounts {
  return Object.fromEntries(COUNT_NAMES.map((name) => [name, 0]));
}

export function countItems(items: readonly PromptImportItemResult[]): ResultCounts {
  const counts = emptyCounts();
  for (const item of items) {
    const name = item.status === 'skipped' ? item.code : item.status;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

export function addCounts(into: ResultCounts, more: ResultCounts): void {
  for (const [name, value] of Object.entries(more)) into[name] = (into[name] ?? 0) + value;
}
