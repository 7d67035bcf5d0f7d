/**
 * Mention (spec 2.5) and citation (our reading of 4.6) records of one evidence batch row, as
 * the default data has them: row `ordinal` of its provider in the analysis's evidence plan
 * (evidence-plan.ts), so the feeds hold what the snapshot counts. A mention is a sentence that
 * names the website's brand, in the language the row says it is in, with `mention_spans` on
 * each naming and the position the plan gives it. A citation cites the brand's own pages under
 * the host of its `domain_url`, a tracked competitor's or a review site's, as the plan's mix
 * says; a few pages of each site draw most citations, as real citations do. The text before
 * each span is ASCII, so the offsets read the same whether counted in UTF-16 units, code
 * points or UTF-8 bytes (the spec does not say which). Edge values are the `edge_values`
 * variant's (edge-evidence-records.ts).
 */
import { Rng } from '../prng.ts';
import { MINUTE, formatTimestamp } from '../timestamps.ts';
import type { Analysis } from '../world/analysis-schedule.ts';
import type { WebsiteRecord } from '../world/website-registry.ts';
import type { Brand } from './brand.ts';
import { type AnalysisPlan, positionOf, scatter } from './evidence-plan.ts';
import { CITED_PATHS, MENTION_SENTENCES, PAGE_TOPICS, REVIEW_SITES } from './text-fragments.ts';

/** Where a row sits; its generator is keyed by all of it. */
export interface EvidenceRow {
  seed: number;
  website: WebsiteRecord;
  /** The website's brand and competitors, which the default records speak of. */
  brand: Brand;
  analysis: Analysis;
  /** What the analysis found; the row is one of it. */
  plan: AnalysisPlan;
  provider: string;
  /** The provider's place in the plan (and in `MENTION_PROVIDERS`). */
  at: number;
  /** The row's place among the provider's rows of this family in the analysis (main write, then late). */
  ordinal: number;
  /** The batch's publication stamp, formatted once per batch. */
  availableAt: string;
  id: string;
  /** The first row of the analysis's first write that has rows (the `deep_records` variant decorates it). */
  firstOfAnalysis: boolean;
}

/** Longest `sentence_text` before it is cut and marked truncated, in code points. */
const TRUNCATED_AT = 48;

/** Every `{ start, end }` where `name` stands in `text`. */
function spansOf(text: string, name: string): { start: number; end: number }[] {
  const spans = [];
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + name.length))
    spans.push({ start: at, end: at + name.length });
  return spans;
}

/** When the provider observed the answer: within the hour after the analysis's `as_of`. */
export function observedAt(rng: Rng, analysis: Analysis): string {
  return formatTimestamp(analysis.asOfMs + rng.int(0, 59) * MINUTE + rng.int(0, 59) * 1000);
}

/** How often answers come in each language: mostly English. */
const LANGUAGE_SHARES = [
  ['en', 0.7],
  ['de', 0.1],
  ['fr', 0.1],
  ['zh', 0.05],
  ['ja', 0.05],
] as const;
const SENTENCES_BY_LANGUAGE = new Map(
  LANGUAGE_SHARES.map(([language]) => [language, MENTION_SENTENCES.filter((s) => s.language === language)]),
);

/** The sentence of a mention row, whole, and the language it is written in. */
export function mentionSentence(row: EvidenceRow): { text: string; language: string } {
  const rng = Rng.of(row.seed, 'sentence', row.id);
  let roll = rng.next();
  const [language] = LANGUAGE_SHARES.find(([, share]) => (roll -= share) < 0) ?? LANGUAGE_SHARES[0];
  const sentence = rng.pick(SENTENCES_BY_LANGUAGE.get(language)!);
  const pick = <T>(items: readonly T[]) => rng.pick(items);
  return {
    text: sentence.text(row.brand.name, rng.pick(row.brand.competitors).name, pick),
    language: sentence.language,
  };
}

export function mentionRecord(row: EvidenceRow): Record<string, unknown> {
  const rng = Rng.of(row.seed, 'mention', row.id);
  const { name } = row.brand;
  const full = mentionSentence(row).text;
  const points = [...full];
  // A long sentence is sometimes cut (at a code point), never before the brand's first naming.
  const truncated = points.length > TRUNCATED_AT && full.indexOf(name) + name.length <= TRUNCATED_AT && rng.chance(0.1);
  const text = truncated ? `${points.slice(0, TRUNCATED_AT).join('')}…` : full;
  return {
    id: row.id,
    analysis_id: row.analysis.id,
    observed_at: observedAt(rng, row.analysis),
    available_at: row.availableAt,
    provider: row.provider,
    sentence_text: text,
    sentence_text_truncated: truncated,
    position_in_response: positionOf(row.seed, row.website, row.analysis, row.plan, row.at, row.ordinal),
    sentiment: rng.chance(0.1) ? null : rng.decimal(20, 95, 1),
    mention_spans: spansOf(text, name),
  };
}

/** Pages cited per site: few enough that the popular ones come back again and again. */
const PAGES_PER_SITE = 16;

/** Which site a citation row cites, as its provider's citation mix in the plan says. */
function citedSite(row: EvidenceRow, rng: Rng): { domain: string; about: string; page: string } {
  const { brand } = row;
  const mix = row.plan.providers[row.at]!.citations!;
  const total = mix.brand + mix.other + mix.competitors.reduce((a, b) => a + b, 0);
  let rank = scatter(row.ordinal, total, row.analysis.index + 7);
  if (rank < mix.brand) return { domain: brand.host, about: brand.name, page: brand.host };
  rank -= mix.brand;
  for (const [k, count] of mix.competitors.entries()) {
    if (rank < count) {
      const { domain, name } = brand.competitors[k]!;
      return { domain, about: name, page: domain };
    }
    rank -= count;
  }
  // Review sites: the first ones far more cited than the last; their pages are about the brand.
  const domain = REVIEW_SITES[Math.floor(rng.next() ** 2 * REVIEW_SITES.length)]!;
  return { domain, about: brand.name, page: `${domain}/${brand.name}` };
}

export function citationRecord(row: EvidenceRow): Record<string, unknown> {
  const rng = Rng.of(row.seed, 'citation', row.id);
  const cited = citedSite(row, rng);
  // A page's URL and title are the same wherever it is cited; the first pages draw most citations.
  const page = Rng.of(row.seed, 'page', cited.page, Math.floor(rng.next() ** 3 * PAGES_PER_SITE));
  return {
    id: row.id,
    website_id: row.website.id,
    analysis_id: row.analysis.id,
    provider: row.provider,
    observed_at: observedAt(rng, row.analysis),
    available_at: row.availableAt,
    url: `https://${cited.domain}/${page.pick(CITED_PATHS)}/${page.token(6).toLowerCase()}`,
    domain: cited.domain,
    title: page.chance(0.1) ? null : `${cited.about}: ${page.pick(PAGE_TOPICS)}`,
  };
}

/** `citations_without_ids`: a citation record without its `id`. */
export function withoutId(record: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = record;
  return rest;
}
