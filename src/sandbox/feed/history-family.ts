/**
 * The history feed: one finalized, immutable point per analysis, written together with the
 * snapshot (same stamp, same commit).
 */
import { snapshotParts } from '../data/snapshot-parts.ts';
import { measuredAnalyses } from '../world/analysis-schedule.ts';
import type { MetricVersionSchedule } from '../world/metric-versions.ts';
import type { FeedFamily } from './feed-batch.ts';

export function historyFamily(seed: number, versions: MetricVersionSchedule): FeedFamily {
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
            const parts = snapshotParts(seed, versions, website, analysis);
            return { ...parts.data, meta: parts.meta };
          },
        })),
  };
}
