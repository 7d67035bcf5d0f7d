/**
 * What one analysis found, before any number is derived from it: which providers answered,
 * how many brand-mention sentences and citations each one's answers held, which of those
 * sentences have a position, and whose pages the citations point at. The mention and citation
 * feeds are these rows one for one, and the snapshot's counts are counted off them
 * (consistent-measures.ts), so the feeds and the snapshot tell one story. The feed volume per
 * analysis stays the configured `mentionsPerAnalysis` / `citationsPerAnalysis`; which
 * provider holds how many is drawn per analysis. Draws that a metric's definition decides are
 * keyed by that metric's definition version, so a new definition (`changeMetricVersions`)
 * moves the numbers of the analyses measured under it and no others.
 */
import { MENTION_PROVIDERS, type MetricKey } from '../../../schemas/keys.ts';
import { Rng } from '../prng.ts';
import type { Analysis } from '../world/analysis-schedule.ts';
import type { MetricVersionSchedule } from '../world/metric-versions.ts';
import type { WebsiteRecord } from '../world/website-registry.ts';

/** Rows per provider of one evidence family: its main write each, and the late write of one of them. */
export interface EvidenceWrites {
  readonly main: readonly number[];
  readonly late: { readonly at: number; readonly size: number } | null;
}

/** Whose pages one provider's citations are: the brand's, each tracked competitor's, anyone else's. */
export interface CitationMix {
  readonly brand: number;
  readonly competitors: readonly number[];
  readonly other: number;
}

export interface ProviderPlan {
  readonly provider: string;
  /** Whether the provider answered any prompt of the analysis (an AI overview is not always shown). */
  readonly answers: boolean;
  /** Brand-mention sentences: its rows in the mentions feed. */
  readonly mentions: number;
  /** Of those, the sentences with a `position_in_response`. */
  readonly positioned: number;
  /** Its rows in the citations feed by whose pages they cite; null when citation extraction failed. */
  readonly citations: CitationMix | null;
}

export interface AnalysisPlan {
  readonly providers: readonly ProviderPlan[];
  readonly mentionWrites: EvidenceWrites;
  readonly citationWrites: EvidenceWrites;
  /** The definition version of each metric the analysis was measured under. */
  readonly definitions: Readonly<Record<MetricKey, string>>;
}

export type EvidencePlanner = (website: WebsiteRecord, analysis: Analysis) => AnalysisPlan;

/** Splits `total` over `weights` in proportion, remainders to the largest fractions (ties: first). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map(Math.floor);
  const order = exact.map((x, i) => [x - shares[i]!, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const left = total - shares.reduce((a, b) => a + b, 0);
  for (let k = 0; k < left; k++) shares[order[k]![1]]!++;
  return shares;
}

/** An eighth of an analysis's rows come in the late write of one answering provider; the rest by weight. */
function writesOf(rng: Rng, total: number, weights: readonly number[]): EvidenceWrites {
  const late = Math.floor(total / 8);
  const answering = weights.flatMap((w, i) => (w > 0 ? [i] : []));
  return {
    main: apportion(total - late, weights),
    late: late > 0 ? { at: rng.pick(answering), size: late } : null,
  };
}

/** Rows of provider `at` over its main and late writes. */
export const rowsOf = (writes: EvidenceWrites, at: number) =>
  writes.main[at]! + (writes.late?.at === at ? writes.late.size : 0);

/**
 * A fixed shuffle of `0..n-1`: which sentence or citation of a provider is which kind is
 * spread over its rows instead of running in blocks. Multiplying by a prime above any row
 * count is a bijection modulo `n`.
 */
export const scatter = (ordinal: number, n: number, key: number) => (ordinal * 2_654_435_761 + key) % n;

/** The position in the answer of a provider's mention `ordinal`, or null; small positions are the common ones. */
export function positionOf(
  seed: number,
  website: WebsiteRecord,
  analysis: Analysis,
  plan: AnalysisPlan,
  at: number,
  ordinal: number,
) {
  const { provider, mentions, positioned } = plan.providers[at]!;
  const version = plan.definitions.average_mention_position;
  if (scatter(ordinal, mentions, analysis.index) >= positioned) return null;
  const rng = Rng.of(seed, 'position', website.id, analysis.index, provider, ordinal, version);
  return 1 + Math.floor(rng.next() ** 2 * 12);
}

export function evidencePlanner(
  seed: number,
  sizes: { mentions: number; citations: number },
  versions: MetricVersionSchedule,
  competitorsOf: (website: WebsiteRecord) => number,
): EvidencePlanner {
  return (website, analysis) => {
    const definitions = versions.tagsOf(analysis).metric_definition_versions;
    const rng = Rng.of(seed, 'evidence', website.id, analysis.index);
    // An AI overview is not shown for every prompt; sometimes for none of this analysis's.
    const answers = MENTION_PROVIDERS.map((provider) => provider !== 'google_ai_overview' || !rng.chance(0.2));
    const weightsOf = () => answers.map((a) => (a ? rng.decimal(0.4, 1.6, 2) : 0));
    // Now and then citation extraction fails for an analysis: it has no citation evidence.
    const citationsFailed = rng.chance(0.06);
    const mentionWrites = writesOf(rng, sizes.mentions, weightsOf());
    const citationWrites = writesOf(rng, citationsFailed ? 0 : sizes.citations, weightsOf());
    const competitors = competitorsOf(website);
    const providers = MENTION_PROVIDERS.map((provider, at) => {
      const mentions = rowsOf(mentionWrites, at);
      const placed = Rng.of(
        seed,
        'positioned',
        website.id,
        analysis.index,
        provider,
        definitions.average_mention_position,
      );
      // Whose pages are cited is what a citation-share definition decides.
      const mix = Rng.of(seed, 'citation-mix', website.id, analysis.index, provider, definitions.citation_share);
      const [brand = 0, other = 0, ...ofCompetitors] = apportion(rowsOf(citationWrites, at), [
        mix.decimal(1, 4, 2),
        mix.decimal(1, 3, 2),
        ...Array.from({ length: competitors }, () => mix.decimal(0.3, 2.5, 2)),
      ]);
      return {
        provider,
        answers: answers[at]!,
        mentions,
        positioned: mentions - placed.int(0, Math.floor(mentions / 5)),
        citations: citationsFailed ? null : { brand, competitors: ofCompetitors, other },
      };
    });
    return { providers, mentionWrites, citationWrites, definitions };
  };
}
