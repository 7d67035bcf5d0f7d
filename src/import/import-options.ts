/** What one `aivis import-prompts` run imports, and how. */
import type { ClassificationMode, PromptImportDefaults } from '../../schemas/prompt-import.ts';
import type { WarehouseInput } from './warehouse-items.ts';

export interface ImportOptions {
  readonly websiteId: string;
  /** The input: a `.csv` or `.jsonl` file, or a warehouse source's label (`table:<name>`, `query:<sha256>`). */
  readonly file: string;
  /** Set for `--from-table` and `--from-query`: the rows, read through the destination. */
  readonly warehouse?: WarehouseInput;
  readonly validateOnly: boolean;
  readonly mode: ClassificationMode;
  /** The request `defaults` object, sent as `{}` when unused. */
  readonly defaults: PromptImportDefaults;
  /** Journal path; see `defaultJournalPath`. A warehouse source without `--journal` keeps none. */
  readonly journal?: string;
  /**
   * Warehouse sources: send every row, as new operations (keys salted per run), instead of
   * only the rows whose digest the destination's receipts do not hold yet.
   */
  readonly all?: boolean;
}

/**
 * Beside the input file, one per website and kind of operation: importing the same file into
 * another website is another import, never blocked by this one's journal, and a validation
 * and the write that follows it are separate operations (spec 4.7 rule 4) that must not share keys.
 */
export function defaultJournalPath(file: string, websiteId: string, validateOnly: boolean): string {
  return `${file}.${websiteId}.${validateOnly ? 'validation' : 'import'}-journal.json`;
}
