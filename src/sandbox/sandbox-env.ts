/**
 * Everything the routes of one sandbox share: the seeded world (workspaces, keys, websites,
 * feeds), the virtual data clock and the cursor codec.
 */
import type { FeedFamily } from './feed/feed-batch.ts';
import { evidenceFamily } from './feed/evidence-family.ts';
import { historyFamily } from './feed/history-family.ts';
import { contractCitation, contractMention, contractSnapshot } from './data/contract-records.ts';
import { withDeepField } from './data/deep-field.ts';
import { brandOf } from './data/brand.ts';
import { consistentMeasure } from './data/consistent-measures.ts';
import { edgeCitationRecord, edgeMentionRecord } from './data/edge-evidence-records.ts';
import { edgeMeasure } from './data/edge-measures.ts';
import { evidencePlanner } from './data/evidence-plan.ts';
import { citationRecord, mentionRecord, mentionSentence, withoutId } from './data/evidence-records.ts';
import { type SnapshotRenderer, snapshotRenderer } from './data/snapshot-parts.ts';
import { websiteResource } from './data/website-fields.ts';
import { type CursorCodec, createCursorCodec } from './http/cursor-codec.ts';
import { hashKey } from './prng.ts';
import type { VirtualClock } from './virtual-clock.ts';
import { MINUTE } from './timestamps.ts';
import { type TimestampStyle, timestampStyle } from './timestamp-style.ts';
import type { SandboxVariant } from './variants.ts';
import { type KeyRegistry, createKeyRegistry } from './world/api-keys.ts';
import { type MetricVersionSchedule, createMetricVersionSchedule } from './world/metric-versions.ts';
import { type WebsiteRecord, type WebsiteRegistry, createWebsiteRegistry } from './world/website-registry.ts';

/** The data-shaping options of a sandbox (see `SandboxOptions`), defaults applied. */
export interface WorldOptions {
  seed: number;
  websites: number;
  /** The data clock (pinned or following this machine's); the seeded world is placed relative to its time at start. */
  clock: VirtualClock;
  analysesPerWebsite: number;
  mentionsPerAnalysis: number;
  citationsPerAnalysis: number;
  /** Switched-on variants (see `variants.ts`). */
  variants: ReadonlySet<SandboxVariant>;
}

/** Shared state of one sandbox server. */
export interface SandboxEnv {
  readonly options: WorldOptions;
  readonly clock: VirtualClock;
  readonly keys: KeyRegistry;
  readonly websites: WebsiteRegistry;
  /** The version tags of every analysis, and the changes made to them. */
  readonly metricVersions: MetricVersionSchedule;
  /** An analysis as the snapshot and history endpoints render it (the variants' numbers, the schedule's tags). */
  readonly snapshot: SnapshotRenderer;
  readonly feeds: { readonly history: FeedFamily; readonly mentions: FeedFamily; readonly citations: FeedFamily };
  readonly cursors: CursorCodec;
  readonly variants: ReadonlySet<SandboxVariant>;
  /** How responses and the truth write timestamps (a variant may change it). */
  readonly timestamps: TimestampStyle;
  /** The Website resource (spec 2.2) of a registry record at data time `nowMs`, as this sandbox's variants serve it. */
  website(record: WebsiteRecord, nowMs: number): Record<string, unknown>;
}

export function createSandboxEnv(options: WorldOptions): SandboxEnv {
  const { seed } = options;
  const deep = options.variants.has('deep_records');
  const edge = options.variants.has('edge_values');
  const metricVersions = createMetricVersionSchedule();
  const plan = evidencePlanner(
    seed,
    { mentions: options.mentionsPerAnalysis, citations: options.citationsPerAnalysis },
    metricVersions,
    (website) => brandOf(seed, website).competitors.length,
  );
  const snapshot = contractSnapshot(
    options.variants,
    snapshotRenderer(seed, metricVersions, edge ? edgeMeasure : consistentMeasure(plan)),
  );
  const mention = contractMention(
    options.variants,
    edge ? edgeMentionRecord : mentionRecord,
    edge ? () => null : (row) => mentionSentence(row).language,
  );
  const citation = contractCitation(options.variants, edge ? edgeCitationRecord : citationRecord);
  return {
    options,
    clock: options.clock,
    keys: createKeyRegistry(seed),
    websites: createWebsiteRegistry({
      seed,
      // Whole minutes, so every stamp stays a whole minute on a clock that follows the machine's.
      startMs: Math.floor(options.clock.nowMs() / MINUTE) * MINUTE,
      primary: options.websites,
      analysesPerWebsite: options.analysesPerWebsite,
    }),
    metricVersions,
    snapshot,
    feeds: {
      history: historyFamily(snapshot),
      mentions: evidenceFamily(seed, plan, {
        name: 'mentions',
        idPrefix: 'men_',
        writesOf: (analysis) => analysis.mentionWrites,
        stampOffsetMs: 0,
        record: deep ? (row) => (row.firstOfAnalysis ? withDeepField(mention(row)) : mention(row)) : mention,
      }),
      // One minute after the mention writes, so the two families never share a stamp.
      citations: evidenceFamily(seed, plan, {
        name: 'citations',
        idPrefix: 'cit_',
        writesOf: (analysis) => analysis.citationWrites,
        stampOffsetMs: MINUTE,
        record: options.variants.has('citations_without_ids') ? (row) => withoutId(citation(row)) : citation,
      }),
    },
    // Derived from the seed so two sandboxes of one seed answer byte for byte the same.
    cursors: createCursorCodec(`aivis-sandbox-cursor-${hashKey(seed, 'cursor-secret').toString(36)}-${seed}`),
    variants: options.variants,
    timestamps: timestampStyle(options.variants),
    website: (record, nowMs) => {
      const resource = websiteResource(seed, record, nowMs);
      // deep_records: the second website of the sandbox is listed with a deep field.
      return deep && record.seq === 2 ? withDeepField(resource) : resource;
    },
  };
}
