/**
 * Mention and citation records of the `edge_values` variant: legal, and what breaks naive
 * loaders. Sentences from the odd-text list (right-to-left scripts, CJK, emoji sequences,
 * combining marks, tabs, backslashes, quotes, newlines, two sentences in one), spans that
 * point anywhere, positions up to 2^53 - 1, citations under a domain made of the website id
 * and URLs with percent-encoded non-ASCII.
 */
import { MAX_COUNT } from '../../../schemas/keys.ts';
import { Rng } from '../prng.ts';
import { type EvidenceRow, observedAt } from './evidence-records.ts';
import { BRAND_SENTENCES, COMPETITOR_DOMAINS, PAGE_TITLES } from './text-fragments.ts';

const TRUNCATED_AT = 48;

export function edgeMentionRecord(row: EvidenceRow): Record<string, unknown> {
  const rng = Rng.of(row.seed, 'mention', row.id);
  const full = rng.chance(0.3)
    ? `${rng.pick(BRAND_SENTENCES)}\n${rng.pick(BRAND_SENTENCES)}`
    : rng.pick(BRAND_SENTENCES);
  const truncated = rng.chance(0.1) && full.length > TRUNCATED_AT;
  const text = truncated ? `${full.slice(0, TRUNCATED_AT)}…` : full;
  const start = rng.int(0, Math.max(0, text.length - 5));
  const spans = [{ start, end: Math.min(text.length, start + rng.int(1, 12)) }];
  if (rng.chance(0.2)) spans.push({ start: 0, end: Math.min(text.length, 4) });
  let position: number | null = rng.int(1, 25);
  if (rng.chance(0.15)) position = null;
  else if (rng.chance(0.02)) position = MAX_COUNT;
  return {
    id: row.id,
    analysis_id: row.analysis.id,
    observed_at: observedAt(rng, row.analysis),
    available_at: row.availableAt,
    provider: row.provider,
    sentence_text: text,
    sentence_text_truncated: truncated,
    position_in_response: position,
    sentiment: rng.chance(0.2) ? null : rng.decimal(0, 100, 1),
    mention_spans: spans,
  };
}

export function edgeCitationRecord(row: EvidenceRow): Record<string, unknown> {
  const rng = Rng.of(row.seed, 'citation', row.id);
  const domain = rng.chance(0.4) ? `${row.website.id.slice(4).toLowerCase()}.example` : rng.pick(COMPETITOR_DOMAINS);
  return {
    id: row.id,
    website_id: row.website.id,
    analysis_id: row.analysis.id,
    provider: row.provider,
    observed_at: observedAt(rng, row.analysis),
    available_at: row.availableAt,
    url: `https://${domain}/articles/${rng.token(6)}?ref=ai&q=${encodeURIComponent('visibilité ✓')}`,
    domain,
    title: rng.chance(0.1) ? null : rng.pick(PAGE_TITLES),
  };
}
