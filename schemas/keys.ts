/**
 * Key lists of the analytics objects (spec part 2.3). One source for the zod schemas, the
 * OpenAPI document and the table contract, so a column can never drift from its field.
 */

/** The five metrics of a website-level snapshot, a history point and a provider entry. */
export const METRIC_KEYS = [
  'visibility',
  'share_of_voice',
  'sentiment',
  'citation_share',
  'average_mention_position',
] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];

/** The 13 website-level count keys. */
export const COUNT_KEYS = [
  'visibility_mentioned_responses',
  'visibility_eligible_responses',
  'visibility_eligible_providers',
  'sov_brand_mentions',
  'sov_competitor_mentions',
  'sov_pool_mentions',
  'sov_eligible_providers',
  'sentiment_scored_responses',
  'sentiment_eligible_responses',
  'brand_citations',
  'competitor_citations',
  'citation_pool',
  'positioned_mention_sentences',
] as const;
export type CountKey = (typeof COUNT_KEYS)[number];

/** Provider entries carry the website-level counts except the two `*_eligible_providers`. */
export const PROVIDER_COUNT_KEYS = COUNT_KEYS.filter(
  (key) => key !== 'visibility_eligible_providers' && key !== 'sov_eligible_providers',
) as Exclude<CountKey, 'visibility_eligible_providers' | 'sov_eligible_providers'>[];

/** Competitor entries have four metrics (no sentiment). */
export const COMPETITOR_METRIC_KEYS = [
  'visibility',
  'share_of_voice',
  'citation_share',
  'average_mention_position',
] as const;

export const COMPETITOR_COUNT_KEYS = [
  'mentioned_responses',
  'eligible_responses',
  'mentions',
  'citations',
  'positioned_mention_sentences',
] as const;

/** Reason values for website-level and provider-level `unavailable_reasons`. */
export const WEBSITE_REASONS = [
  'no_finalized_analysis',
  'no_eligible_responses',
  'visibility_facts_unavailable',
  'no_tracked_mentions',
  'sov_facts_unavailable',
  'no_scored_responses',
  'sentiment_scoring_failed',
  'sentiment_evidence_unavailable',
  'no_competitive_citations',
  'citation_extraction_failed',
  'citation_evidence_unavailable',
  'no_brand_mentions',
  'mention_position_evidence_unavailable',
] as const;

/** Reason values for competitor `unavailable_reasons`. */
export const COMPETITOR_REASONS = [
  'no_eligible_responses',
  'competitor_visibility_facts_unavailable',
  'no_competitive_mentions',
  'competitor_sov_facts_unavailable',
  'no_competitive_citations',
  'competitor_citation_facts_unavailable',
  'no_competitor_mentions',
  'competitor_position_evidence_unavailable',
] as const;

/** Providers the mentions endpoint filters by (spec 4.5). */
export const MENTION_PROVIDERS = ['chatgpt', 'gemini', 'perplexity', 'google_ai_overview'] as const;

/** Largest count the spec allows: 2^53 - 1, so a JS number holds every valid count exactly. */
export const MAX_COUNT = 9007199254740991;
