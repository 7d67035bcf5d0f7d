/**
 * The default numbers of an analysis: data that adds up, as an analyst reading the tables
 * expects. The evidence plan (evidence-plan.ts) says what the analysis found, and the counts
 * are counted off it: a provider's `sov_brand_mentions` are its rows in the mentions feed, its
 * `positioned_mention_sentences` those with a position and its `average_mention_position` their
 * mean; its `citation_pool` is its rows in the citations feed, `brand_citations` and
 * `competitor_citations` those under the brand's host and the competitors' domains. The
 * responses behind them are drawn around those: mentioned responses hold the brand's sentences
 * (at least one each), eligible responses hold the mentioned ones. Every website-level count
 * is the sum of its provider entries; every percentage is its numerator over its denominator
 * (spec 2.3: visibility = responses mentioning the brand / eligible responses, share of voice
 * = brand (or competitor) mentions / all mentions of the pool, citation share = brand (or
 * competitor) citations / the citation pool), rounded to two decimals; the pools also hold
 * brands and sites nobody tracks, so the brand's share plus its competitors' stays under 100.
 * A metric is null, with its reason, exactly when its denominator is 0 or its facts failed.
 * What a metric's definition decides is drawn by its definition version, so a new definition
 * moves that metric for the analyses measured under it.
 */
import { MENTION_PROVIDERS } from '../../../schemas/keys.ts';
import { Rng } from '../prng.ts';
import type { Analysis } from '../world/analysis-schedule.ts';
import type { WebsiteRecord } from '../world/website-registry.ts';
import { brandOf } from './brand.ts';
import { type AnalysisPlan, type EvidencePlanner, positionOf } from './evidence-plan.ts';
import type { Measure } from './snapshot-parts.ts';

/** `part / whole` in percent with two decimals; null when there is no whole. */
export function percentage(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 100;
}

/** The mean of `values` weighted by `weights`, two decimals; null when the weights are 0. */
function weightedMean(values: readonly number[], weights: readonly number[]): number | null {
  const total = weights.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  return Math.round((values.reduce((sum, value, i) => sum + value * weights[i]!, 0) / total) * 100) / 100;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** What one provider's answers held for the brand and each tracked competitor. */
interface ProviderDraw {
  provider: string;
  eligible: number;
  mentioned: number;
  scored: number;
  sentiment: number;
  brandMentions: number;
  otherMentions: number;
  positioned: number;
  /** Mean position of the positioned sentences (0 when none). */
  position: number;
  brandCitations: number;
  otherCitations: number;
  competitors: {
    mentioned: number;
    mentions: number;
    positioned: number;
    position: number;
    citations: number;
  }[];
}

/** `count` minus a few, never below 0: responses or sentences some step could not use. */
const minusAFew = (rng: Rng, count: number, most: number) => count - rng.int(0, Math.min(most, count));

/** The mean `position_in_response` of a provider's positioned mention rows. */
function meanPosition(seed: number, website: WebsiteRecord, analysis: Analysis, plan: AnalysisPlan, at: number) {
  let total = 0;
  for (let ordinal = 0; ordinal < plan.providers[at]!.mentions; ordinal++)
    total += positionOf(seed, website, analysis, plan, at, ordinal) ?? 0;
  return plan.providers[at]!.positioned === 0 ? 0 : total / plan.providers[at]!.positioned;
}

function drawProvider(
  seed: number,
  website: WebsiteRecord,
  analysis: Analysis,
  plan: AnalysisPlan,
  at: number,
  competitors: number,
): ProviderDraw {
  const { provider, answers, mentions, positioned, citations } = plan.providers[at]!;
  const { definitions } = plan;
  const rngOf = (metric: keyof typeof definitions) =>
    Rng.of(seed, 'measure', metric, website.id, analysis.index, provider, definitions[metric]);
  // Visibility: the responses that hold the brand's sentences, and the eligible ones around them.
  const visibility = rngOf('visibility');
  const mentioned = mentions === 0 ? 0 : Math.max(1, Math.round(mentions * visibility.decimal(0.5, 0.9, 2)));
  const eligible = !answers
    ? 0
    : mentioned === 0
      ? visibility.int(8, 40)
      : Math.max(mentioned, Math.round(mentioned / visibility.decimal(0.15, 0.75, 2)));
  const mentionedCompetitors = Array.from({ length: competitors }, () =>
    Math.round(eligible * visibility.decimal(0.05, 0.6, 2)),
  );
  // Share of voice: which other names the pool counts.
  const voice = rngOf('share_of_voice');
  const competitorMentions = mentionedCompetitors.map((m) => m + voice.int(0, m));
  const sentiment = rngOf('sentiment');
  const position = rngOf('average_mention_position');
  return {
    provider,
    eligible,
    mentioned,
    scored: minusAFew(sentiment, mentioned, 2),
    sentiment: sentiment.decimal(35, 90, 2),
    brandMentions: mentions,
    otherMentions: answers ? voice.int(1, Math.max(2, Math.round(mentions * 0.8))) : 0,
    positioned,
    position: meanPosition(seed, website, analysis, plan, at),
    brandCitations: citations?.brand ?? 0,
    otherCitations: citations?.other ?? 0,
    competitors: mentionedCompetitors.map((competitorMentioned, k) => ({
      mentioned: competitorMentioned,
      mentions: competitorMentions[k]!,
      positioned: minusAFew(position, competitorMentions[k]!, 2),
      position: position.decimal(1.5, 9, 2),
      citations: citations?.competitors[k] ?? 0,
    })),
  };
}

/** The five metrics of a website or provider from its counts, and the reason of each null (null citation counts: extraction failed). */
function brandMetrics(
  counts: {
    mentioned: number;
    eligible: number;
    brandMentions: number;
    pool: number;
    scored: number;
    brandCitations: number | null;
    citationPool: number | null;
    positioned: number;
  },
  sentiment: number | null,
  position: number | null,
) {
  const metrics = {
    visibility: percentage(counts.mentioned, counts.eligible),
    share_of_voice: percentage(counts.brandMentions, counts.pool),
    sentiment: counts.scored === 0 ? null : sentiment,
    citation_share:
      counts.brandCitations === null || counts.citationPool === null
        ? null
        : percentage(counts.brandCitations, counts.citationPool),
    average_mention_position: counts.positioned === 0 ? null : position,
  };
  const reasons: Record<string, string> = {};
  if (metrics.visibility === null) reasons.visibility = 'no_eligible_responses';
  if (metrics.share_of_voice === null) reasons.share_of_voice = 'no_tracked_mentions';
  if (metrics.sentiment === null) reasons.sentiment = 'no_scored_responses';
  if (metrics.citation_share === null)
    reasons.citation_share = counts.citationPool === null ? 'citation_extraction_failed' : 'no_competitive_citations';
  if (metrics.average_mention_position === null) reasons.average_mention_position = 'no_brand_mentions';
  return { metrics, reasons };
}

export const consistentMeasure =
  (plan: EvidencePlanner): Measure =>
  (_rng, seed, website, analysis) => {
    const brand = brandOf(seed, website);
    const analysisPlan = plan(website, analysis);
    const draws = MENTION_PROVIDERS.map((_, at) =>
      drawProvider(seed, website, analysis, analysisPlan, at, brand.competitors.length),
    );
    // When citation extraction failed, the citation facts are null throughout.
    const citationsFailed = analysisPlan.providers[0]!.citations === null;
    const citationCount = (value: number) => (citationsFailed ? null : value);

    const providerCounts = draws.map((d) => {
      const competitorMentions = sum(d.competitors.map((c) => c.mentions));
      const competitorCitations = sum(d.competitors.map((c) => c.citations));
      return {
        visibility_mentioned_responses: d.mentioned,
        visibility_eligible_responses: d.eligible,
        sov_brand_mentions: d.brandMentions,
        sov_competitor_mentions: competitorMentions,
        sov_pool_mentions: d.brandMentions + competitorMentions + d.otherMentions,
        sentiment_scored_responses: d.scored,
        sentiment_eligible_responses: d.mentioned,
        brand_citations: citationCount(d.brandCitations),
        competitor_citations: citationCount(competitorCitations),
        citation_pool: citationCount(d.brandCitations + competitorCitations + d.otherCitations),
        positioned_mention_sentences: d.positioned,
      };
    });
    // A website-level count is the sum of its provider entries' (null when theirs are).
    const total = (key: keyof (typeof providerCounts)[number]) => {
      const values = providerCounts.map((c) => c[key]);
      return values.includes(null) ? null : sum(values as number[]);
    };
    const counts = {
      visibility_mentioned_responses: total('visibility_mentioned_responses')!,
      visibility_eligible_responses: total('visibility_eligible_responses')!,
      visibility_eligible_providers: draws.filter((d) => d.eligible > 0).length,
      sov_brand_mentions: total('sov_brand_mentions')!,
      sov_competitor_mentions: total('sov_competitor_mentions')!,
      sov_pool_mentions: total('sov_pool_mentions')!,
      sov_eligible_providers: providerCounts.filter((c) => c.sov_pool_mentions > 0).length,
      sentiment_scored_responses: total('sentiment_scored_responses')!,
      sentiment_eligible_responses: total('sentiment_eligible_responses')!,
      brand_citations: total('brand_citations'),
      competitor_citations: total('competitor_citations'),
      citation_pool: total('citation_pool'),
      positioned_mention_sentences: total('positioned_mention_sentences')!,
    };
    const metricsOf = (c: (typeof providerCounts)[number], sentiment: number | null, position: number | null) =>
      brandMetrics(
        {
          mentioned: c.visibility_mentioned_responses,
          eligible: c.visibility_eligible_responses,
          brandMentions: c.sov_brand_mentions,
          pool: c.sov_pool_mentions,
          scored: c.sentiment_scored_responses,
          brandCitations: c.brand_citations,
          citationPool: c.citation_pool,
          positioned: c.positioned_mention_sentences,
        },
        sentiment,
        position,
      );
    const site = metricsOf(
      counts,
      weightedMean(
        draws.map((d) => d.sentiment),
        draws.map((d) => d.scored),
      ),
      weightedMean(
        draws.map((d) => d.position),
        draws.map((d) => d.positioned),
      ),
    );
    const providers = draws.map((d, i) => {
      const entry = metricsOf(providerCounts[i]!, d.sentiment, Math.round(d.position * 100) / 100);
      return {
        provider: d.provider,
        metrics: entry.metrics,
        counts: providerCounts[i]!,
        unavailable_reasons: entry.reasons,
      };
    });
    const competitors = brand.competitors.map((competitor, k) => {
      const of = draws.map((d) => d.competitors[k]!);
      const mentions = sum(of.map((c) => c.mentions));
      const positioned = sum(of.map((c) => c.positioned));
      const citations = citationCount(sum(of.map((c) => c.citations)));
      const metrics = {
        visibility: percentage(sum(of.map((c) => c.mentioned)), counts.visibility_eligible_responses),
        share_of_voice: percentage(mentions, counts.sov_pool_mentions),
        citation_share:
          citations === null || counts.citation_pool === null ? null : percentage(citations, counts.citation_pool),
        average_mention_position: weightedMean(
          of.map((c) => c.position),
          of.map((c) => c.positioned),
        ),
      };
      const reasons: Record<string, string> = {};
      if (metrics.visibility === null) reasons.visibility = 'no_eligible_responses';
      if (metrics.share_of_voice === null) reasons.share_of_voice = 'no_competitive_mentions';
      if (metrics.citation_share === null)
        reasons.citation_share =
          citations === null ? 'competitor_citation_facts_unavailable' : 'no_competitive_citations';
      if (metrics.average_mention_position === null) reasons.average_mention_position = 'no_competitor_mentions';
      return {
        competitor_domain: competitor.domain,
        metrics,
        counts: {
          mentioned_responses: sum(of.map((c) => c.mentioned)),
          eligible_responses: counts.visibility_eligible_responses,
          mentions,
          citations,
          positioned_mention_sentences: positioned,
        },
        unavailable_reasons: reasons,
      };
    });
    return { metrics: site.metrics, counts, unavailable: site.reasons, providers, competitors };
  };
