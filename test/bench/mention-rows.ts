/**
 * Realistic `mentions` rows, made the way a sync makes them: the sandbox's records, validated
 * by the mention schema and mapped by the mentions stream, cut into the engine's flush size.
 */
import { mentionSchema } from '../../schemas/index.ts';
import type { StateEntry } from '../../src/state/state-entry.ts';
import type { Row } from '../../src/destination/table-spec.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import { mentionsStream } from '../../src/streams/mentions.ts';

/** One flush as the engine hands it to `commit`: a page run's rows and the state after them. */
export interface MentionBatch {
  readonly rows: Row[];
  readonly state: StateEntry;
}

/** About `total` rows (rounded to whole analyses) in batches of `flushRows`. */
export async function mentionBatches(total: number, flushRows: number): Promise<MentionBatch[]> {
  const websites = 5; // every fifth is unmeasured: 4 carry rows
  const analyses = 5;
  const sandbox = await startSandbox({
    seed: 11,
    websites,
    analysesPerWebsite: analyses,
    mentionsPerAnalysis: Math.ceil(total / (4 * analyses)),
    citationsPerAnalysis: 0,
  });
  try {
    const batches: MentionBatch[] = [];
    let rows: Row[] = [];
    const context = { runId: 'run_bench', syncedAt: '2026-01-01T00:00:00.000Z', workspace: 'default' };
    for (const { id } of sandbox.truth.websites() as { id: string }[]) {
      for (const raw of sandbox.truth.mentions(id)) {
        rows.push(mentionsStream.toRow(mentionSchema.parse(raw), raw, { ...context, websiteId: id }));
        if (rows.length === flushRows) {
          batches.push({ rows, state: stateAfter(id, batches.length) });
          rows = [];
        }
      }
    }
    if (rows.length > 0) batches.push({ rows, state: stateAfter('web_last', batches.length) });
    return batches;
  } finally {
    await sandbox.close();
  }
}

function stateAfter(scope: string, n: number): StateEntry {
  const state = {
    frontier: null,
    cursor: `cursor-${n}-${'x'.repeat(200)}`,
    pending_upper_bound: '2026-01-01T00:00:00Z',
  };
  return { stream: 'mentions', scope, state, updatedAt: '2026-01-01T00:00:00.000Z' };
}
