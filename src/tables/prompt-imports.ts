/**
 * Receipts of prompt imports (docs/architecture.md#prompt-import), loaded by `aivis import-prompts` when the config
 * has a destination. Receipts carry no prompt text, and neither do these tables: item rows
 * map a receipt item to its input line and `client_id`.
 */
import { column, tableSpec, type TableSpec } from '../destination/table-spec.ts';
import { LOAD_COLUMNS } from './common-columns.ts';

/** One row per import operation (a partition's attempt that reached the service). */
export const promptImportsTable = tableSpec({
  name: 'prompt_imports',
  description:
    'One row per prompt import operation `aivis import-prompts` sent (spec 2.9 receipts): its status and counts, and which lines of which input file it carried. No prompt text.',
  primaryKey: ['id'],
  partitionBy: 'created_at',
  clusterBy: ['website_id'],
  columns: [
    column('id', 'string', false, 'The import id (`pim_...`).'),
    column('website_id', 'string', false, 'The website the prompts were imported into.'),
    column('status', 'string', false, "The receipt's status (spec part 3)."),
    column('validate_only', 'boolean', false, 'True for a validation run that created nothing.'),
    column('classification_mode', 'string', false, 'The classification mode the import asked for.'),
    column('error_code', 'string', "The receipt's error code; NULL when it has none."),
    column('error_retryable', 'boolean', 'Whether the error may succeed when retried; NULL without an error.'),
    column('created', 'int64', false, 'Prompts created.'),
    column('would_create', 'int64', false, 'Prompts a validation run would have created.'),
    column('skipped_request_duplicate', 'int64', false, 'Items skipped as duplicates within the request.'),
    column('skipped_active_duplicate', 'int64', false, 'Items skipped as duplicates of active prompts.'),
    column('skipped_inactive_duplicate', 'int64', false, 'Items skipped as duplicates of inactive prompts.'),
    column('failed', 'int64', false, 'Items that failed.'),
    column('not_processed', 'int64', false, 'Items not processed.'),
    column(
      'input_file',
      'string',
      false,
      'The input the items came from: the file as given on the command line, `table:<name>` or `query:<sha256 of the statement>`.',
    ),
    column('partition_index', 'int64', false, 'Which request of the input file this was, from 0.'),
    column('first_line', 'int64', false, 'The first input line (or table or query row) the request carried.'),
    column('last_line', 'int64', false, 'The last input line (or table or query row) the request carried.'),
    column('created_at', 'timestamp', false, 'When the service accepted the import.'),
    column('completed_at', 'timestamp', 'When the import reached a final status; NULL until then.'),
    column('expires_at', 'timestamp', false, 'When the service forgets the receipt.'),
    ...LOAD_COLUMNS,
  ],
});

/** One row per receipt item: its status and code, and where it came from in the input. */
export const promptImportItemsTable = tableSpec({
  name: 'prompt_import_items',
  description: 'One row per item of a prompt import receipt: its outcome and the input line it came from.',
  primaryKey: ['import_id', 'item_index'],
  clusterBy: ['import_id'],
  columns: [
    column('import_id', 'string', false, 'The import (`prompt_imports.id`).'),
    column('item_index', 'int64', false, "The item's position in the request, from 0."),
    column('website_id', 'string', false, 'The website the prompt was imported into.'),
    column('client_id', 'string', "The item's `client_id` from the input; NULL when it had none."),
    column(
      'input_line',
      'int64',
      false,
      'The line of the input file (or row of the table or query) the item came from.',
    ),
    column('status', 'string', false, "The item's outcome (created, skipped, failed, ...)."),
    column('code', 'string', 'Why the item was skipped or failed; NULL when created.'),
    column(
      'text_sha256',
      'string',
      "SHA-256 (hex) of the item's prompt text normalized (NFC, trimmed, whitespace collapsed, lowercased), never the text: how later imports from a table or query know a prompt was already sent. NULL for items loaded before aivis recorded it.",
    ),
    column('provenance', 'json', "The receipt's provenance of the item, as sent; NULL when absent."),
    ...LOAD_COLUMNS,
  ],
});

export const PROMPT_IMPORT_TABLES: readonly TableSpec[] = [promptImportsTable, promptImportItemsTable];
