/**
 * Switchable operation faults of the import side: the next N accepted operations end with a
 * retryable operation error (`classification_unavailable`, `commit_conflict`,
 * `internal_processing_error`, and under the `receipts_with_extra_fields` variant
 * `quota_window_exhausted`, a code the spec does not list) or stall until the 30-minute
 * processing deadline (`processing_deadline_exceeded`), so clients can prove they retry with
 * a new key.
 */
import type { OperationErrorCode } from './import-outcome.ts';

export type ImportFaultCode = Exclude<OperationErrorCode, 'prompt_limit_exceeded' | 'classification_failed'>;

export class ImportFaults {
  private readonly queue: ImportFaultCode[] = [];

  /** The next `count` operations accepted will hit `code`. */
  failNext(code: ImportFaultCode, count = 1): void {
    for (let i = 0; i < count; i++) this.queue.push(code);
  }

  clear(): void {
    this.queue.length = 0;
  }

  /** Called once per new operation, at acceptance. */
  take(): ImportFaultCode | undefined {
    return this.queue.shift();
  }
}
