/**
 * Mention and citation feeds of a website. Each analysis publishes its evidence in one write
 * per provider, started a few minutes apart; chatgpt's write is slow and commits last (after
 * the snapshot), so between its start and commit the feed has a committed row stamped LATER
 * than an uncommitted one. A small late write follows hours to a day after the snapshot
 * ("late evidence"). How many rows each write holds is the analysis's evidence plan
 * (data/evidence-plan.ts): a provider that answered nothing writes nothing.
 */
import { MENTION_PROVIDERS } from '../../../schemas/keys.ts';
import { brandOf } from '../data/brand.ts';
import type { AnalysisPlan, EvidencePlanner, EvidenceWrites } from '../data/evidence-plan.ts';
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
  /** This family's writes in an analysis's plan. */
  writesOf(plan: AnalysisPlan): EvidenceWrites;
  /** Shifts this family's stamps so mentions and citations never share one. */
  stampOffsetMs: number;
  record(row: EvidenceRow): Record<string, unknown>;
}

function batchesOfAnalysis(
  seed: number,
  website: WebsiteRecord,
  analysis: Analysis,
  plan: AnalysisPlan,
  layout: EvidenceLayout,
): FeedBatch[] {
  const writes = layout.writesOf(plan);
  const head = `${layout.idPrefix}${website.id.slice(4)}_${analysis.index.toString(36).padStart(4, '0')}`;
  const brand = brandOf(seed, website);
  const firstWrite = writes.main.findIndex((size) => size > 0);
  const make = (tag: string, at: number, stampMs: number, commitMs: number, size: number, first: number): FeedBatch => {
    const provider = MENTION_PROVIDERS[at]!;
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
          website,
          brand,
          analysis,
          plan,
          provider,
          at,
          ordinal: first + index,
          availableAt,
          id: rowId(batch, index),
          firstOfAnalysis: at === firstWrite && tag !== 'z' && index === 0,
        }),
    };
    return batch;
  };
  const batches = MENTION_PROVIDERS.map((_, j) => {
    const stampMs = analysis.startMs + layout.stampOffsetMs + j * PROVIDER_STEP;
    const lag = j === 0 ? SLOW_PROVIDER_LAG : (2 + j) * MINUTE;
    return make(String.fromCharCode(97 + j), j, stampMs, stampMs + lag, writes.main[j]!, 0);
  });
  if (writes.late) {
    const { at, size } = writes.late;
    const rng = Rng.of(seed, layout.name, 'late', website.id, analysis.index);
    const stampMs = analysis.startMs + layout.stampOffsetMs + rng.int(3, 30) * HOUR + rng.int(0, 59) * MINUTE;
    batches.push(make('z', at, stampMs, stampMs + LATE_WRITE_LAG, size, writes.main[at]!));
  }
  return batches.filter((b) => b.size > 0);
}

export function evidenceFamily(seed: number, plan: EvidencePlanner, layout: EvidenceLayout): FeedFamily {
  return {
    name: layout.name,
    batches: (website, nowMs) =>
      measuredAnalyses(website, nowMs)
        .flatMap((analysis) => batchesOfAnalysis(seed, website, analysis, plan(website, analysis), layout))
        .filter((batch) => batch.stampMs <= nowMs),
  };
}
