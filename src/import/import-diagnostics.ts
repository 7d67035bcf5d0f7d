/**
 * Maps the item results of a failed operation, and the `details` of a refused request, back
 * to input lines (rows of a table or query) and `client_id`s, so the user fixes the input rather
 * than decoding indexes.
 */
import { JOURNEY_TAGS, type PromptImportRequest } from '../../schemas/prompt-import.ts';
import type { PromptImportReceipt } from '../../schemas/prompt-import-receipt.ts';
import type { ApiErrorDetail } from '../client/api-error.ts';
import type { Partition } from './partitions.ts';

const MAX_LISTED = 50;

/** The parts of the request a failed partition sent that say what its items lacked. */
export type SentRequest = Pick<PromptImportRequest, 'items' | 'defaults'>;

/**
 * What `auto` must classify (spec 2.8 rule 3) that neither the item nor the defaults gave:
 * the receipt names failed items but not the field, so these are the candidates. A given tag
 * list holds a journey tag (checked before sending); an explicit null gives nothing.
 */
function notGiven(sent: SentRequest, index: number): string[] {
  const item = sent.items[index];
  if (!item) return [];
  const { defaults } = sent;
  const missing: string[] = [];
  if ((item.language ?? defaults.language ?? null) === null) missing.push('language');
  if ((item.search_intent ?? defaults.search_intent ?? null) === null) missing.push('search_intent');
  if (!(item.tags === undefined ? defaults.tags : item.tags)?.length) missing.push('journey tag');
  return missing;
}

/** The spec's action for `classification_failed` (part 7), with the flags that carry it out. */
export const CLASSIFICATION_FIX = `to fix: add the missing language, search_intent or a standard journey tag (${JOURNEY_TAGS.join(', ')}) to each failed item, in the input or with --defaults-language, --defaults-intent or --defaults-tags, or use --classification provided_only (nothing is classified; every item then needs a language); then run the same command again (the failed operation created nothing)`;

/**
 * One line per failed item (status `failed`) by input line (or row) and `client_id`, with the required
 * fields it did not give when `sent` is known, then how many were not processed.
 */
export function receiptDiagnostics(
  receipt: PromptImportReceipt,
  { lines, unit }: Pick<Partition, 'lines' | 'unit'>,
  sent?: SentRequest,
): string[] {
  if (receipt.status !== 'failed') return [];
  const out: string[] = [];
  let notProcessed = 0;
  for (const item of receipt.items) {
    if (item.status === 'not_processed') notProcessed++;
    if (item.status !== 'failed') continue;
    const clientId = item.client_id === undefined ? '' : ` (client_id ${item.client_id})`;
    const missing = sent ? notGiven(sent, item.index) : [];
    out.push(
      `${unit} ${lines[item.index] ?? '?'}${clientId}: ${item.code}${missing.length ? ` (not given: ${missing.join(', ')})` : ''}`,
    );
  }
  const listed = out.slice(0, MAX_LISTED);
  if (out.length > MAX_LISTED) listed.push(`... and ${out.length - MAX_LISTED} more failed items`);
  if (notProcessed)
    listed.push(`${notProcessed} other items were not processed (the operation is atomic: nothing was created)`);
  if (receipt.error.code === 'classification_failed') listed.push(CLASSIFICATION_FIX);
  return listed;
}

/** `items[3].tags[0]: ...` becomes `line 57, field tags[0]: ...` (`row 57` for a table or query). */
export function detailDiagnostics(
  details: readonly ApiErrorDetail[],
  { lines, unit }: Pick<Partition, 'lines' | 'unit'>,
): string[] {
  return details.map((detail) => {
    const match = /^items\[(\d+)\]\.?(.*)$/.exec(detail.field);
    if (!match) return `${detail.field}: ${detail.issue}`;
    return `${unit} ${lines[Number(match[1])] ?? '?'}, field ${match[2] || '(item)'}: ${detail.issue}`;
  });
}
