/** Mention (spec 2.5) and citation (our reading of 4.6) records of one evidence batch row. */
import { MAX_COUNT } from '../../../schemas/keys.ts';
import { Rng } from '../prng.ts';
import { MINUTE, formatTimestamp } from '../timestamps.ts';
import type { Analysis } from '../world/analysis-schedule.ts';
import { BRAND_SENTENCES, COMPETITOR_DOMAINS, PAGE_TITLES } from './text-fragments.ts';

/** Where a row sits; its generator is keyed by all of it. */
export interface EvidenceRow {
  seed: number;
  websiteId: string;
  analysis: Analysis;
  provider: string;
  /** The batch's publication stamp, formatted once per batch. */
  availableAt: string;
  id: string;
  /** The first row of the analysis's first write (the `deep_records` variant decorates it). */
  firstOfAnalysis: boolean;
}

const TRUNCATED_AT = 48;

export function mentionRecord(row: EvidenceRow): Record<string, unknown> {
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
    observed_at: formatTimestamp(row.analysis.asOfMs + rng.int(0, 59) * MINUTE + rng.int(0, 59) * 1000),
    available_at: row.availableAt,
    provider: row.provider,
    sentence_text: text,
    sentence_text_truncated: truncated,
    position_in_response: position,
    sentiment: rng.chance(0.2) ? null : rng.decimal(0, 100, 1),
    mention_spans: spans,
  };
}

export function citationRecord(row: EvidenceRow): Record<string, unknown> {
  const rng = Rng.of(row.seed, 'citation', row.id);
  const domain = rng.chance(0.4) ? `${row.websiteId.slice(4).toLowerCase()}.example` : rng.pick(COMPETITOR_DOMAINS);
  return {
    id: row.id,
    website_id: row.websiteId,
    analysis_id: row.analysis.id,
    provider: row.provider,
    observed_at: formatTimestamp(row.analysis.asOfMs + rng.int(0, 59) * MINUTE + rng.int(0, 59) * 1000),
    available_at: row.availableAt,
    url: `https://${domain}/articles/${rng.token(6)}?ref=ai&q=${encodeURIComponent('visibilité ✓')}`,
    domain,
    title: rng.chance(0.1) ? null : rng.pick(PAGE_TITLES),
  };
}

/** `citations_without_ids`: the same citation without its `id`. */
export function citationRecordWithoutId(row: EvidenceRow): Record<string, unknown> {
  const { id: _id, ...record } = citationRecord(row);
  return record;
}
