/**
 * Mention and citation feeds of a website. Each analysis publishes its evidence in one write
 * per provider, started a few minutes apart; chatgpt's write is slow and commits last (after
 * the snapshot), so between its start and commit the feed has a committed row stamped LATER
 * than an uncommitted one. A small late write follows hours to a day after the snapshot
 * ("late evidence").
 */
import { MENTION_PROVIDERS } from '../../../schemas/keys.ts';
import { brandOf } from '../data/brand.ts';
import type { EvidenceRow } from '../data/evidence-records.ts';
import { Rng } from '../prng.ts';
import { HOUR, MINUTE, formatTimestamp } from '../timestamps.ts';
import { type Analysis, measuredAnalyses } from '../world/analysis-schedule.ts';
import type { WebsiteRecord } from '../world/website-registry.ts';
import { type FeedBatch, type FeedFamily, rowId } from './feed-batch.ts';

const PROVIDER_STEP = 5 * MINUTE;
const SLOW_PROVIDER_LAG = 50 * MINUTE;
const LATE_WRITE_LAG = 4 * MINUTE;

/** How one evidence family is laid out. */
export interface EvidenceLayout {
  /** Route name and id prefix, e.g. `mentions` / `men_`. */
  name: string;
  idPrefix: string;
  /** Rows per analysis, over all its writes. */
  perAnalysis: number;
  /** Shifts this family's stamps so mentions and citations never share one. */
  stampOffsetMs: number;
  record(row: EvidenceRow): Record<string, unknown>;
}

function batchesOfAnalysis(
  seed: number,
  website: WebsiteRecord,
  analysis: Analysis,
  layout: EvidenceLayout,
): FeedBatch[] {
  const late = Math.floor(layout.perAnalysis / 8);
  const main = layout.perAnalysis - late;
  const head = `${layout.idPrefix}${website.id.slice(4)}_${analysis.index.toString(36).padStart(4, '0')}`;
  const brand = brandOf(seed, website);
  const make = (tag: string, provider: string, stampMs: number, commitMs: number, size: number): FeedBatch => {
    const availableAt = formatTimestamp(stampMs);
    const batch: FeedBatch = {
      stampMs,
      commitMs,
      prefix: head + tag,
      size,
      analysisId: analysis.id,
      provider,
      row: (index) =>
        layout.record({
          seed,
          websiteId: website.id,
          brand,
          analysis,
          provider,
          availableAt,
          id: rowId(batch, index),
          firstOfAnalysis: tag === 'a' && index === 0,
        }),
    };
    return batch;
  };
  const batches = MENTION_PROVIDERS.map((provider, j) => {
    const stampMs = analysis.startMs + layout.stampOffsetMs + j * PROVIDER_STEP;
    const lag = j === 0 ? SLOW_PROVIDER_LAG : (2 + j) * MINUTE;
    const size = Math.floor(main / MENTION_PROVIDERS.length) + (j < main % MENTION_PROVIDERS.length ? 1 : 0);
    return make(String.fromCharCode(97 + j), provider, stampMs, stampMs + lag, size);
  });
  if (late > 0) {
    const rng = Rng.of(seed, layout.name, 'late', website.id, analysis.index);
    const stampMs = analysis.startMs + layout.stampOffsetMs + rng.int(3, 30) * HOUR + rng.int(0, 59) * MINUTE;
    batches.push(make('z', rng.pick(MENTION_PROVIDERS), stampMs, stampMs + LATE_WRITE_LAG, late));
  }
  return batches.filter((b) => b.size > 0);
}

export function evidenceFamily(seed: number, layout: EvidenceLayout): FeedFamily {
  return {
    name: layout.name,
    batches: (website, nowMs) =>
      measuredAnalyses(website, nowMs)
        .flatMap((analysis) => batchesOfAnalysis(seed, website, analysis, layout))
        .filter((batch) => batch.stampMs <= nowMs),
  };
}
