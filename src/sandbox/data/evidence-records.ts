/**
 * Mention (spec 2.5) and citation (our reading of 4.6) records of one evidence batch row, as
 * the default data has them: a sentence that names the website's brand with `mention_spans`
 * on each naming, a plausible position in the answer, and citations of the brand's own pages
 * under the host of its `domain_url`, of its tracked competitors' and of review sites. The
 * text before each span is ASCII, so the offsets read the same whether counted in UTF-16
 * units, code points or UTF-8 bytes (the spec does not say which). Edge values are the
 * `edge_values` variant's (edge-evidence-records.ts).
 */
import { Rng } from '../prng.ts';
import { MINUTE, formatTimestamp } from '../timestamps.ts';
import type { Analysis } from '../world/analysis-schedule.ts';
import type { Brand } from './brand.ts';
import { CITED_PATHS, MENTION_SENTENCES, PAGE_TOPICS, REVIEW_SITES } from './text-fragments.ts';

/** Where a row sits; its generator is keyed by all of it. */
export interface EvidenceRow {
  seed: number;
  websiteId: string;
  /** The website's brand and competitors, which the default records speak of. */
  brand: Brand;
  analysis: Analysis;
  provider: string;
  /** The batch's publication stamp, formatted once per batch. */
  availableAt: string;
  id: string;
  /** The first row of the analysis's first write (the `deep_records` variant decorates it). */
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

export function mentionRecord(row: EvidenceRow): Record<string, unknown> {
  const rng = Rng.of(row.seed, 'mention', row.id);
  const { name, competitors } = row.brand;
  const full = rng.pick(MENTION_SENTENCES)(name, rng.pick(competitors).name);
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
    position_in_response: rng.chance(0.1) ? null : rng.int(1, 12),
    sentiment: rng.chance(0.1) ? null : rng.decimal(20, 95, 1),
    mention_spans: spansOf(text, name),
  };
}

export function citationRecord(row: EvidenceRow): Record<string, unknown> {
  const rng = Rng.of(row.seed, 'citation', row.id);
  const { brand } = row;
  const roll = rng.next();
  // The brand's own pages, a tracked competitor's, or a review site's.
  const cited =
    roll < 0.4
      ? { domain: brand.host, about: brand.name }
      : roll < 0.8
        ? (({ domain, name }) => ({ domain, about: name }))(rng.pick(brand.competitors))
        : { domain: rng.pick(REVIEW_SITES), about: brand.name };
  return {
    id: row.id,
    website_id: row.websiteId,
    analysis_id: row.analysis.id,
    provider: row.provider,
    observed_at: observedAt(rng, row.analysis),
    available_at: row.availableAt,
    url: `https://${cited.domain}/${rng.pick(CITED_PATHS)}/${rng.token(6).toLowerCase()}`,
    domain: cited.domain,
    title: rng.chance(0.1) ? null : `${cited.about}: ${rng.pick(PAGE_TOPICS)}`,
  };
}

/** `citations_without_ids`: a citation record without its `id`. */
export function withoutId(record: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = record;
  return rest;
}
