/**
 * What each metric and count of an analytics row means (spec 2.3), written once for the
 * snapshot, history, provider and competitor tables. A metric's NULL is "not measured": the
 * row's `unavailable_reasons` says why, with a value from the spec's reason lists.
 */
import type { COMPETITOR_COUNT_KEYS, COMPETITOR_METRIC_KEYS, CountKey, MetricKey } from '../../schemas/keys.ts';

type CompetitorMetricKey = (typeof COMPETITOR_METRIC_KEYS)[number];
type CompetitorCountKey = (typeof COMPETITOR_COUNT_KEYS)[number];

const NOT_MEASURED = 'NULL when not measured (never 0): `unavailable_reasons` names the reason.';

export const METRIC_DESCRIPTIONS: Readonly<Record<MetricKey, string>> = {
  visibility: `Visibility, 0 to 100: the share of eligible AI responses that mention the brand. ${NOT_MEASURED}`,
  share_of_voice: `Share of voice, 0 to 100: brand mentions among the mentions of brand and competitors. ${NOT_MEASURED}`,
  sentiment: `Sentiment, 0 to 100, over the scored responses. ${NOT_MEASURED}`,
  citation_share: `Citation share, 0 to 100: citations of the brand among brand and competitor citations. ${NOT_MEASURED}`,
  average_mention_position: `Average position of the brand's mention in a response, >= 1 (1 is first). ${NOT_MEASURED}`,
};

const COUNT = 'Integer 0 to 9007199254740991; NULL when the service did not count it.';

export const COUNT_DESCRIPTIONS: Readonly<Record<CountKey, string>> = {
  visibility_mentioned_responses: `Responses that mention the brand (visibility's numerator). ${COUNT}`,
  visibility_eligible_responses: `Responses eligible for visibility (its denominator). ${COUNT}`,
  visibility_eligible_providers: `AI providers with responses eligible for visibility. ${COUNT}`,
  sov_brand_mentions: `Mentions of the brand (share of voice's numerator). ${COUNT}`,
  sov_competitor_mentions: `Mentions of competitors counted for share of voice. ${COUNT}`,
  sov_pool_mentions: `All mentions in the share-of-voice pool (its denominator). ${COUNT}`,
  sov_eligible_providers: `AI providers eligible for share of voice. ${COUNT}`,
  sentiment_scored_responses: `Responses whose sentiment was scored. ${COUNT}`,
  sentiment_eligible_responses: `Responses eligible for sentiment scoring. ${COUNT}`,
  brand_citations: `Citations of the brand's pages (citation share's numerator). ${COUNT}`,
  competitor_citations: `Citations of competitors' pages. ${COUNT}`,
  citation_pool: `All citations in the citation-share pool (its denominator). ${COUNT}`,
  positioned_mention_sentences: `Mention sentences with a known position (average_mention_position's basis). ${COUNT}`,
};

const COMPETITOR_NOT_MEASURED =
  'NULL when not measured (never 0): `unavailable_reasons` names the reason, from the competitor reason list.';

export const COMPETITOR_METRIC_DESCRIPTIONS: Readonly<Record<CompetitorMetricKey, string>> = {
  visibility: `The competitor's visibility, 0 to 100. ${COMPETITOR_NOT_MEASURED}`,
  share_of_voice: `The competitor's share of voice, 0 to 100. ${COMPETITOR_NOT_MEASURED}`,
  citation_share: `The competitor's citation share, 0 to 100. ${COMPETITOR_NOT_MEASURED}`,
  average_mention_position: `The competitor's average mention position, >= 1 (1 is first). ${COMPETITOR_NOT_MEASURED}`,
};

export const COMPETITOR_COUNT_DESCRIPTIONS: Readonly<Record<CompetitorCountKey, string>> = {
  mentioned_responses: `Responses that mention the competitor. ${COUNT}`,
  eligible_responses: `Responses eligible for the competitor's visibility. ${COUNT}`,
  mentions: `Mentions of the competitor. ${COUNT}`,
  citations: `Citations of the competitor's pages. ${COUNT}`,
  positioned_mention_sentences: `The competitor's mention sentences with a known position. ${COUNT}`,
};

/** `unavailable_reasons`: why a metric is NULL (spec 2.3's reason lists). */
export const REASONS_DESCRIPTION =
  'Why a metric is NULL: a JSON object from metric name to a reason of the spec\'s website/provider list (e.g. `{"sentiment": "no_scored_responses"}`); `{}` when every metric was measured.';
export const COMPETITOR_REASONS_DESCRIPTION =
  'Why a competitor metric is NULL: a JSON object from metric name to a reason of the spec\'s competitor list (e.g. `{"visibility": "no_competitive_mentions"}`); `{}` when every metric was measured.';
