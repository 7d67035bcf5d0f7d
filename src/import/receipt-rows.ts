/**
 * A terminal receipt as rows of `prompt_imports` and `prompt_import_items`. `_raw` is the
 * receipt (or item) as the API sent it, every part the spec does not show included; receipts
 * hold no prompt text, so neither do rows. `provenance` is the item's `provenance` field when
 * it has one (the spec shows neither its place nor its shape; `_raw` keeps it wherever it is).
 */
import type { PromptImportReceipt } from '../../schemas/prompt-import-receipt.ts';
import type { TableRows } from '../destination/destination.ts';
import type { Row } from '../destination/table-spec.ts';
import { promptImportItemsTable, promptImportsTable } from '../tables/prompt-imports.ts';
import type { PartitionOutcome } from './partition-import.ts';

export interface RowContext {
  readonly file: string;
  /** The run's classification mode: receipts do not say it (spec 2.9). */
  readonly classificationMode: string;
  readonly runId: string;
  readonly syncedAt: string;
  /** The config's workspace whose key sent the import (`default` for `source:`). */
  readonly workspace: string;
}

export function receiptRows(
  outcome: PartitionOutcome & { receipt: PromptImportReceipt },
  context: RowContext,
): TableRows[] {
  const { receipt, partition, counts } = outcome;
  const raw = (outcome.rawReceipt ?? receipt) as { items?: unknown[] };
  const load = { _synced_at: context.syncedAt, _run_id: context.runId, _workspace: context.workspace };
  const terminal = receipt.status === 'succeeded' || receipt.status === 'failed' ? receipt : undefined;
  const importRow: Row = {
    id: receipt.id,
    website_id: receipt.website_id,
    status: receipt.status,
    validate_only: receipt.validate_only,
    classification_mode: context.classificationMode,
    error_code: receipt.status === 'failed' ? receipt.error.code : null,
    error_retryable: receipt.status === 'failed' ? receipt.error.retryable : null,
    created: counts.created ?? 0,
    would_create: counts.would_create ?? 0,
    skipped_request_duplicate: counts.skipped_request_duplicate ?? 0,
    skipped_active_duplicate: counts.skipped_active_duplicate ?? 0,
    skipped_inactive_duplicate: counts.skipped_inactive_duplicate ?? 0,
    failed: counts.failed ?? 0,
    not_processed: counts.not_processed ?? 0,
    input_file: context.file,
    partition_index: partition.index,
    first_line: partition.lines[0] ?? 0,
    last_line: partition.lines.at(-1) ?? 0,
    created_at: receipt.created_at,
    completed_at: terminal?.completed_at ?? null,
    expires_at: receipt.expires_at,
    ...load,
    _raw: JSON.stringify(raw),
  };
  const itemRows: Row[] = (terminal?.items ?? []).map((item, i) => {
    const rawItem = (raw.items?.[i] ?? item) as { provenance?: unknown };
    return {
      import_id: receipt.id,
      item_index: item.index,
      website_id: receipt.website_id,
      client_id: item.client_id ?? null,
      input_line: partition.lines[item.index] ?? 0,
      text_sha256: partition.digests[item.index] ?? null,
      status: item.status,
      code: typeof item.code === 'string' ? item.code : null,
      provenance: rawItem.provenance === undefined ? null : JSON.stringify(rawItem.provenance),
      ...load,
      _raw: JSON.stringify(rawItem),
    };
  });
  return [
    { table: promptImportsTable, rows: [importRow] },
    { table: promptImportItemsTable, rows: itemRows },
  ];
}
