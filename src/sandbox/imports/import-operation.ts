/** One accepted import operation as the sandbox keeps it. */
import type { ClassificationMode } from '../../../schemas/prompt-import.ts';
import type { ImportFaultCode } from './import-faults.ts';
import type { ImportOutcome } from './import-outcome.ts';
import type { ImportRequest } from './import-request.ts';

export interface ImportOperation {
  readonly id: string;
  readonly workspaceId: string;
  /** Integration lineage of the accepting key; receipts are bound to it (spec 5.5). */
  readonly lineageId: string;
  readonly websiteId: string;
  readonly idempotencyKey: string;
  readonly fingerprint: string;
  readonly validateOnly: boolean;
  readonly mode: ClassificationMode;
  readonly acceptedAt: number;
  readonly expiresAt: number;
  readonly fault?: ImportFaultCode;
  /** Staged content: dropped once the operation is terminal (spec part 8). */
  staged?: ImportRequest;
  outcome?: ImportOutcome;
  completedAt?: number;
}

/** Relative path of the receipt, sent as `Location`. */
export function receiptPath(op: Pick<ImportOperation, 'websiteId' | 'id'>): string {
  return `/public/v2/websites/${op.websiteId}/prompt-imports/${op.id}`;
}
