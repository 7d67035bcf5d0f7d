/**
 * One analysis rendered as the spec's analytics objects (2.3, 2.4): website-level metrics
 * and counts, provider and competitor breakdowns, version tags and data quality. The numbers
 * come from a `Measure`: data that adds up by default (consistent-measures.ts), values at
 * the spec's edges under the `edge_values` variant (edge-measures.ts). A missing measurement
 * is null with its reason, never zero.
 */
import { Rng } from '../prng.ts';
import { formatTimestamp } from '../timestamps.ts';
import type { Analysis } from '../world/analysis-schedule.ts';
import type { MetricVersionSchedule } from '../world/metric-versions.ts';
import type { WebsiteRecord } from '../world/website-registry.ts';

/** The pieces the snapshot and history endpoints assemble differently. */
export interface SnapshotParts {
  /** `website_id, analysis_id, as_of, available_at, metrics, counts`. */
  data: Record<string, unknown>;
  /** Version tags, `unavailable_reasons`, `data_quality` (no `request_id`, no `includes`). */
  meta: Record<string, unknown>;
  providers: Record<string, unknown>[];
  competitors: Record<string, unknown>[];
}

/** Website-level metrics, counts and reasons of one analysis, and its two breakdowns. */
export interface Measured {
  metrics: Record<string, number | null>;
  counts: Record<string, number | null>;
  unavailable: Record<string, string>;
  providers: Record<string, unknown>[];
  competitors: Record<string, unknown>[];
}

/** Draws the numbers of one analysis from `rng` (the analysis's own generator). */
export type Measure = (rng: Rng, seed: number, website: WebsiteRecord, analysis: Analysis) => Measured;

/** How a sandbox renders an analysis, its measure and version schedule bound. */
export type SnapshotRenderer = (website: WebsiteRecord, analysis: Analysis) => SnapshotParts;

/**
 * The documented flag, plus `postprocess_status`, which the spec names without placing: a
 * field clients must keep (in `_raw`) without knowing it.
 */
function dataQuality(isPartial: boolean) {
  return { is_partial: isPartial, postprocess_status: isPartial ? 'pending' : 'complete' };
}

export function snapshotRenderer(seed: number, versions: MetricVersionSchedule, measure: Measure): SnapshotRenderer {
  return (website, analysis) => {
    const rng = Rng.of(seed, 'snapshot', website.id, analysis.index);
    const measured = measure(rng, seed, website, analysis);
    return {
      data: {
        website_id: website.id,
        analysis_id: analysis.id,
        as_of: formatTimestamp(analysis.asOfMs),
        available_at: formatTimestamp(analysis.startMs),
        metrics: measured.metrics,
        counts: measured.counts,
      },
      meta: {
        ...versions.tagsOf(analysis),
        unavailable_reasons: measured.unavailable,
        data_quality: dataQuality(rng.chance(0.15)),
      },
      providers: measured.providers,
      competitors: measured.competitors,
    };
  };
}
