/**
 * Where an operation stands at a given moment of the sandbox's virtual clock: `pending` for
 * one second, then one second per `processing` phase (`validating`, `classifying` in mode
 * `auto` only, `committing`), then terminal. A stalled operation (fault) sits in its last
 * phase until the 30-minute processing deadline. Advancing the clock is what moves it.
 */
import type { ClassificationMode } from '../../../schemas/prompt-import.ts';

export const PHASE_MS = 1000;
export const PROCESSING_DEADLINE_MS = 30 * 60 * 1000;
export const RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export type ProcessingPhase = 'validating' | 'classifying' | 'committing';
export type Stage =
  | { status: 'pending' }
  | { status: 'processing'; phase: ProcessingPhase; startedAt: number }
  | { status: 'terminal'; at: number };

export interface TimelineInput {
  readonly acceptedAt: number;
  readonly mode: ClassificationMode;
  readonly stalled: boolean;
}

export function phasesOf(mode: ClassificationMode): ProcessingPhase[] {
  return mode === 'auto' ? ['validating', 'classifying', 'committing'] : ['validating', 'committing'];
}

export function stageAt(op: TimelineInput, now: number): Stage {
  const startedAt = op.acceptedAt + PHASE_MS;
  if (now < startedAt) return { status: 'pending' };
  const phases = phasesOf(op.mode);
  if (op.stalled) {
    const deadline = op.acceptedAt + PROCESSING_DEADLINE_MS;
    if (now >= deadline) return { status: 'terminal', at: deadline };
    const step = Math.min(Math.floor((now - startedAt) / PHASE_MS), phases.length - 2);
    return { status: 'processing', phase: phases[step] ?? 'validating', startedAt };
  }
  const step = Math.floor((now - startedAt) / PHASE_MS);
  const phase = phases[step];
  return phase
    ? { status: 'processing', phase, startedAt }
    : { status: 'terminal', at: startedAt + phases.length * PHASE_MS };
}
