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
  primaryKey: ['id'],
  partitionBy: 'created_at',
  clusterBy: ['website_id'],
  columns: [
    column('id', 'string', false),
    column('website_id', 'string', false),
    column('status', 'string', false),
    column('validate_only', 'boolean', false),
    column('classification_mode', 'string', false),
    column('error_code', 'string'),
    column('error_retryable', 'boolean'),
    column('created', 'int64', false),
    column('would_create', 'int64', false),
    column('skipped_request_duplicate', 'int64', false),
    column('skipped_active_duplicate', 'int64', false),
    column('skipped_inactive_duplicate', 'int64', false),
    column('failed', 'int64', false),
    column('not_processed', 'int64', false),
    column('input_file', 'string', false),
    column('partition_index', 'int64', false),
    column('first_line', 'int64', false),
    column('last_line', 'int64', false),
    column('created_at', 'timestamp', false),
    column('completed_at', 'timestamp'),
    column('expires_at', 'timestamp', false),
    ...LOAD_COLUMNS,
  ],
});

/** One row per receipt item: its status and code, and where it came from in the input. */
export const promptImportItemsTable = tableSpec({
  name: 'prompt_import_items',
  primaryKey: ['import_id', 'item_index'],
  clusterBy: ['import_id'],
  columns: [
    column('import_id', 'string', false),
    column('item_index', 'int64', false),
    column('website_id', 'string', false),
    column('client_id', 'string'),
    column('input_line', 'int64', false),
    column('status', 'string', false),
    column('code', 'string'),
    column('provenance', 'json'),
    ...LOAD_COLUMNS,
  ],
});

export const PROMPT_IMPORT_TABLES: readonly TableSpec[] = [promptImportsTable, promptImportItemsTable];
