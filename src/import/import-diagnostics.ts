/**
 * Maps the item results of a failed operation, and the `details` of a refused request, back
 * to input lines and `client_id`s, so the user fixes the file rather than decoding indexes.
 */
import type { PromptImportReceipt } from '../../schemas/prompt-import-receipt.ts';
import type { ApiErrorDetail } from '../client/api-error.ts';

const MAX_LISTED = 50;

/** One line per failed item (status `failed`), then how many were not processed. */
export function receiptDiagnostics(receipt: PromptImportReceipt, lines: readonly number[]): string[] {
  if (receipt.status !== 'failed') return [];
  const out: string[] = [];
  let notProcessed = 0;
  for (const item of receipt.items) {
    if (item.status === 'not_processed') notProcessed++;
    if (item.status !== 'failed') continue;
    const clientId = item.client_id === undefined ? '' : ` (client_id ${item.client_id})`;
    out.push(`line ${lines[item.index] ?? '?'}${clientId}: ${item.code}`);
  }
  const listed = out.slice(0, MAX_LISTED);
  if (out.length > MAX_LISTED) listed.push(`... and ${out.length - MAX_LISTED} more failed items`);
  if (notProcessed)
    listed.push(`${notProcessed} other items were not processed (the operation is atomic: nothing was created)`);
  return listed;
}

/** `items[3].tags[0]: ...` becomes `line 57, field tags[0]: ...`. */
export function detailDiagnostics(details: readonly ApiErrorDetail[], lines: readonly number[]): string[] {
  return details.map((detail) => {
    const match = /^items\[(\d+)\]\.?(.*)$/.exec(detail.field);
    if (!match) return `${detail.field}: ${detail.issue}`;
    return `line ${lines[Number(match[1])] ?? '?'}, field ${match[2] || '(item)'}: ${detail.issue}`;
  });
}
