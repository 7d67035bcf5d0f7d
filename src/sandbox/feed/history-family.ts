/**
 * The history feed: one finalized, immutable point per analysis, written together with the
 * snapshot (same stamp, same commit).
 */
import type { SnapshotRenderer } from '../data/snapshot-parts.ts';
import { measuredAnalyses } from '../world/analysis-schedule.ts';
import type { FeedFamily } from './feed-batch.ts';

export function historyFamily(render: SnapshotRenderer): FeedFamily {
  return {
    name: 'analytics.history',
    batches: (website, nowMs) =>
      measuredAnalyses(website, nowMs)
        .filter((analysis) => analysis.startMs <= nowMs)
        .map((analysis) => ({
          stampMs: analysis.startMs,
          commitMs: analysis.commitMs,
          // Ids of history points are analysis ids; a one-row batch needs no index suffix.
          prefix: analysis.id,
          size: 1,
          analysisId: analysis.id,
          provider: null,
          row: () => {
            const parts = render(website, analysis);
            return { ...parts.data, meta: parts.meta };
          },
        })),
  };
}
