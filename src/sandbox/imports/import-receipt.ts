/**
 * Renders an operation as the receipt of spec 2.9. Only identifiers, statuses, codes,
 * counts, times and provenance sources: never prompt text, tags or classified values.
 */
import { CLASSIFIER_VERSION } from './prompt-classifier.ts';
import type { ImportOperation } from './import-operation.ts';
import { PHASE_MS, stageAt } from './import-timeline.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export function renderReceipt(op: ImportOperation, now: number): { data: Record<string, unknown>; terminal: boolean } {
  const data: Record<string, unknown> = {
    id: op.id,
    object: 'prompt_import',
    website_id: op.websiteId,
    validate_only: op.validateOnly,
    classification_mode: op.mode,
    ...(op.mode === 'auto' ? { classifier_version: CLASSIFIER_VERSION } : {}),
    created_at: iso(op.acceptedAt),
    expires_at: iso(op.expiresAt),
  };
  if (op.outcome && op.completedAt !== undefined) {
    const { status, items, summary, error } = op.outcome;
    return {
      data: {
        ...data,
        status,
        ...(error ? { error } : {}),
        ...(summary ? { summary } : {}),
        items,
        started_at: iso(op.acceptedAt + PHASE_MS),
        completed_at: iso(op.completedAt),
      },
      terminal: true,
    };
  }
  const stage = stageAt(
    { acceptedAt: op.acceptedAt, mode: op.mode, stalled: op.fault === 'processing_deadline_exceeded' },
    now,
  );
  if (stage.status === 'processing')
    return {
      data: { ...data, status: 'processing', phase: stage.phase, started_at: iso(stage.startedAt) },
      terminal: false,
    };
  return { data: { ...data, status: 'pending' }, terminal: false };
}
