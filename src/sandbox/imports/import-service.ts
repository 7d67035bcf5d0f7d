/**
 * The import side of the sandbox without HTTP: idempotency store, operations, lineage-bound
 * receipt access, expiry, and processing driven by the virtual clock. Time only moves when
 * the clock does; whenever the service is touched it first settles every operation whose
 * terminal moment has passed, in acceptance order, so effects on the prompt store are the
 * same whatever order clients poll in.
 */
import { createHash } from 'node:crypto';
import { importFingerprint } from './import-fingerprint.ts';
import { ImportFaults } from './import-faults.ts';
import type { ImportOperation } from './import-operation.ts';
import { nothingProcessed, operationError } from './import-outcome.ts';
import { processImport } from './import-processor.ts';
import type { ImportRequest } from './import-request.ts';
import { RETENTION_MS, stageAt } from './import-timeline.ts';
import { PromptStore } from './prompt-store.ts';

/** Who calls: the workspace and integration lineage of the API key (spec 5.3, 5.5). */
export interface ImportCaller {
  readonly workspaceId: string;
  readonly lineageId: string;
}

export type SubmitResult =
  | { kind: 'accepted' | 'replayed'; operation: ImportOperation }
  | { kind: 'conflict'; operation: ImportOperation };

export interface ImportServiceOptions {
  /** Milliseconds of the sandbox's virtual clock. */
  now(): number;
  prompts?: PromptStore;
  faults?: ImportFaults;
}

export class ImportService {
  readonly prompts: PromptStore;
  readonly faults: ImportFaults;
  /** Operations in acceptance order, by id. */
  private readonly operations = new Map<string, ImportOperation>();
  /** Idempotency state: workspace + lineage + key -> operation id. */
  private readonly keys = new Map<string, string>();
  private readonly now: () => number;
  private sequence = 0;

  constructor(options: ImportServiceOptions) {
    this.now = options.now;
    this.prompts = options.prompts ?? new PromptStore();
    this.faults = options.faults ?? new ImportFaults();
  }

  /** POST: a new operation, a replay of the same request, or a conflict (spec 4.7). */
  submit(caller: ImportCaller, websiteId: string, idempotencyKey: string, request: ImportRequest): SubmitResult {
    this.settle();
    const fingerprint = importFingerprint(websiteId, request);
    const scope = keyScope(caller, idempotencyKey);
    const existingId = this.keys.get(scope);
    const existing = existingId === undefined ? undefined : this.operations.get(existingId);
    if (existing) return { kind: existing.fingerprint === fingerprint ? 'replayed' : 'conflict', operation: existing };
    const acceptedAt = this.now();
    const id = `pim_${createHash('sha256')
      .update(`${++this.sequence}:${scope}:${fingerprint}`)
      .digest('hex')
      .slice(0, 24)}`;
    const fault = this.faults.take();
    const operation: ImportOperation = {
      id,
      workspaceId: caller.workspaceId,
      lineageId: caller.lineageId,
      websiteId,
      idempotencyKey,
      fingerprint,
      validateOnly: request.validate_only,
      mode: request.classification.mode,
      acceptedAt,
      expiresAt: acceptedAt + RETENTION_MS,
      staged: request,
      ...(fault ? { fault } : {}),
    };
    this.operations.set(id, operation);
    this.keys.set(scope, id);
    return { kind: 'accepted', operation };
  }

  /**
   * GET: the operation when it exists for this caller's workspace, website and lineage.
   * Anything else (missing, expired, other lineage) is the same `undefined`, so an
   * independent key cannot tell a foreign receipt from a missing one (spec 5.5).
   */
  find(caller: ImportCaller, websiteId: string, importId: string): ImportOperation | undefined {
    this.settle();
    const op = this.operations.get(importId);
    if (!op || op.workspaceId !== caller.workspaceId || op.lineageId !== caller.lineageId || op.websiteId !== websiteId)
      return undefined;
    return op;
  }

  /** The current virtual time, for rendering receipts of operations just settled. */
  currentTime(): number {
    return this.now();
  }

  /** Finishes operations whose terminal moment has passed; forgets expired ones. */
  private settle(): void {
    const now = this.now();
    for (const op of this.operations.values()) {
      if (op.expiresAt <= now) {
        this.operations.delete(op.id);
        this.keys.delete(keyScope(op, op.idempotencyKey));
        continue;
      }
      if (op.outcome || !op.staged) continue;
      const stage = stageAt(
        { acceptedAt: op.acceptedAt, mode: op.mode, stalled: op.fault === 'processing_deadline_exceeded' },
        now,
      );
      if (stage.status !== 'terminal') continue;
      op.outcome =
        op.fault === 'processing_deadline_exceeded'
          ? { status: 'failed', error: operationError(op.fault), items: nothingProcessed(op.staged.items) }
          : processImport(
              {
                importId: op.id,
                websiteId: op.websiteId,
                request: op.staged,
                ...(op.fault ? { fault: op.fault } : {}),
              },
              this.prompts,
            );
      op.completedAt = stage.at;
      delete op.staged; // staged content is removed after terminal processing
    }
  }
}

function keyScope(caller: ImportCaller, idempotencyKey: string): string {
  return `${caller.workspaceId}\0${caller.lineageId}\0${idempotencyKey}`;
}
