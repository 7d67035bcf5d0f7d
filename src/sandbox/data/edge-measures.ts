/**
 * The `edge_values` variant's numbers: values at the edges of what the spec allows, with no
 * relation between them. Counts of realistic size, some null, some beyond 2^32, every seventh
 * analysis's `citation_pool` at 2^53 - 1; metrics drawn on their own, some null with a
 * reason. Legal, and what a loader must store exactly; not data an analyst could read.
 */
import {
  COMPETITOR_COUNT_KEYS,
  COMPETITOR_METRIC_KEYS,
  COUNT_KEYS,
  MAX_COUNT,
  MENTION_PROVIDERS,
  METRIC_KEYS,
  PROVIDER_COUNT_KEYS,
} from '../../../schemas/keys.ts';
import type { Rng } from '../prng.ts';
import type { Measure } from './snapshot-parts.ts';
import { COMPETITOR_DOMAINS } from './text-fragments.ts';

/** Which reasons explain a null in each metric, website/provider level. */
const WEBSITE_REASONS_BY_METRIC: Record<string, string[]> = {
  visibility: ['no_eligible_responses', 'visibility_facts_unavailable'],
  share_of_voice: ['no_tracked_mentions', 'sov_facts_unavailable'],
  sentiment: ['no_scored_responses', 'sentiment_scoring_failed', 'sentiment_evidence_unavailable'],
  citation_share: ['no_competitive_citations', 'citation_extraction_failed', 'citation_evidence_unavailable'],
  average_mention_position: ['no_brand_mentions', 'mention_position_evidence_unavailable'],
};

const COMPETITOR_REASONS_BY_METRIC: Record<string, string[]> = {
  visibility: ['no_eligible_responses', 'competitor_visibility_facts_unavailable'],
  share_of_voice: ['no_competitive_mentions', 'competitor_sov_facts_unavailable'],
  citation_share: ['no_competitive_citations', 'competitor_citation_facts_unavailable'],
  average_mention_position: ['no_competitor_mentions', 'competitor_position_evidence_unavailable'],
};

function metricsWithReasons(rng: Rng, keys: readonly string[], reasons: Record<string, string[]>, nullChance: number) {
  const metrics: Record<string, number | null> = {};
  const unavailable: Record<string, string> = {};
  for (const key of keys) {
    if (rng.chance(nullChance)) {
      metrics[key] = null;
      unavailable[key] = rng.pick(reasons[key]!);
    } else {
      metrics[key] = key === 'average_mention_position' ? rng.decimal(1, 12, 2) : rng.decimal(0, 100, 2);
    }
  }
  return { metrics, unavailable };
}

/** Counts of realistic size, some null, some beyond 2^32 (still exact in JSON and float64). */
function countsOf(rng: Rng, keys: readonly string[]): Record<string, number | null> {
  const counts: Record<string, number | null> = {};
  for (const key of keys) {
    if (rng.chance(0.04)) counts[key] = null;
    else if (rng.chance(0.08)) counts[key] = rng.int(2 ** 32 + 1, MAX_COUNT);
    else counts[key] = rng.int(0, 50_000);
  }
  return counts;
}

export const edgeMeasure: Measure = (rng, _seed, _website, analysis) => {
  const site = metricsWithReasons(rng, METRIC_KEYS, WEBSITE_REASONS_BY_METRIC, 0.12);
  const counts = countsOf(rng, COUNT_KEYS);
  // Every seventh analysis carries the largest count the spec allows, so exactness is testable.
  if (analysis.index % 7 === 3) counts.citation_pool = MAX_COUNT;
  const providers = MENTION_PROVIDERS.map((provider) => {
    const entry = metricsWithReasons(rng, METRIC_KEYS, WEBSITE_REASONS_BY_METRIC, 0.15);
    return {
      provider,
      metrics: entry.metrics,
      counts: countsOf(rng, PROVIDER_COUNT_KEYS),
      unavailable_reasons: entry.unavailable,
    };
  });
  const first = rng.int(0, COMPETITOR_DOMAINS.length - 1);
  const domains = Array.from(
    { length: rng.int(2, 4) },
    (_, i) => COMPETITOR_DOMAINS[(first + i) % COMPETITOR_DOMAINS.length]!,
  );
  const competitors = domains.map((competitor_domain) => {
    const entry = metricsWithReasons(rng, COMPETITOR_METRIC_KEYS, COMPETITOR_REASONS_BY_METRIC, 0.15);
    return {
      competitor_domain,
      metrics: entry.metrics,
      counts: countsOf(rng, COMPETITOR_COUNT_KEYS),
      unavailable_reasons: entry.unavailable,
    };
  });
  return { metrics: site.metrics, counts, unavailable: site.unavailable, providers, competitors };
};
