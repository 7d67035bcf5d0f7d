/** What one `aivis import-prompts` run imports, and how. */
import type { ClassificationMode, PromptImportDefaults } from '../../schemas/prompt-import.ts';

export interface ImportOptions {
  readonly websiteId: string;
  /** `.csv` or `.jsonl`. */
  readonly file: string;
  readonly validateOnly: boolean;
  readonly mode: ClassificationMode;
  /** The request `defaults` object, sent as `{}` when unused. */
  readonly defaults: PromptImportDefaults;
  /** Journal path; see `defaultJournalPath`. */
  readonly journal: string;
}

/**
 * Beside the input file, one per website and kind of operation: importing the same file into
 * another website is another import, never blocked by this one's journal, and a validation
 * and the write that follows it are separate operations (spec 4.7 rule 4) that must not share keys.
 */
export function defaultJournalPath(file: string, websiteId: string, validateOnly: boolean): string {
  return `${file}.${websiteId}.${validateOnly ? 'validation' : 'import'}-journal.json`;
}
