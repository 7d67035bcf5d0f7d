/**
 * The run planner (docs/configuration.md#change-driven-reads): given the listing, the coverage
 * records and what the saved state says of each website's streams, which streams of which
 * websites a run reads, each with its reason. Pure: the caller gathers the inputs and the run's
 * start from its (injectable) clock, and reads what the plan says.
 *
 * Under `skip_unchanged` a stream of a website is read when it has no coverage; the listing's
 * `last_analysis_at` differs (as text) from the recorded one; it has no committed frontier or an
 * unfinished scan; its latest snapshot was partial; the run that first saw the current
 * `last_analysis_at` started less than `settle_for` ago; or its sweep slot came since its last
 * complete read. Otherwise it is skipped as unchanged. A run that reads what it names
 * (`--full-refresh`, `--websites`, `backfill`, `verify`) and a config without `skip_unchanged`
 * read every stream of every website in scope.
 */
import type { ChangeSettings } from './change-settings.ts';
import type { CoverageRecord } from './coverage.ts';
import { sweepDueAtMs, sweepSlotMs } from './sweep-slot.ts';

/** Why a stream of a website is read this run. */
export type ReadReason =
  | 'every_run'
  | 'named'
  | 'not_skippable'
  | 'no_coverage'
  | 'changed'
  | 'no_frontier'
  | 'unfinished_scan'
  | 'partial_snapshot'
  | 'settling'
  | 'sweep_due';

export type StreamDecision =
  | { readonly stream: string; readonly read: true; readonly reason: ReadReason }
  | { readonly stream: string; readonly read: false; readonly reason: 'unchanged' };

/** What the saved state says of one website's stream. */
export interface StreamReadiness {
  /** A committed frontier (a feed) or a snapshot read whole (its coverage record). */
  readonly hasFrontier: boolean;
  /** A scan saved mid-way (a cursor): the next run must finish it. */
  readonly unfinishedScan: boolean;
  /** The latest snapshot read for it said `is_partial`. */
  readonly partialSnapshot: boolean;
}

export interface ListedWebsite {
  readonly id: string;
  /** The listing's `last_analysis_at`, text verbatim; null for a website not yet measured. */
  readonly lastAnalysisAt: string | null;
}

export interface ReadPlanInput {
  readonly workspace: string;
  readonly settings: ChangeSettings;
  /** The run's start on the local clock, epoch milliseconds. */
  readonly runStartMs: number;
  /** `--full-refresh`, `--websites`, `backfill`, `verify`: every stream of every website named. */
  readonly readsWhatItNames: boolean;
  /** The selected streams read per website, in reading order. */
  readonly streams: readonly string[];
  /** Websites in scope, as this run's complete listing shows them. */
  readonly websites: readonly ListedWebsite[];
  readonly coverage: (websiteId: string, stream: string) => CoverageRecord | undefined;
  readonly readiness: (websiteId: string, stream: string) => StreamReadiness;
  /** Streams a skip may leave out (protocol modes: those the catalog reads incrementally); default all. */
  readonly skippable?: (stream: string) => boolean;
}

export interface WebsitePlan {
  readonly id: string;
  readonly decisions: readonly StreamDecision[];
  /** The streams to read, in the order given. */
  readonly read: readonly string[];
  /** Every stream skipped as unchanged (false when the run reads no stream per website). */
  readonly skipped: boolean;
}

export interface ReadPlan {
  readonly websites: readonly WebsitePlan[];
  /** Websites not skipped: with a stream to read (or listed, when the run reads no stream per website). */
  readonly websitesRead: number;
  /** Websites in scope with every stream skipped as unchanged. */
  readonly websitesSkipped: number;
}

export function planReads(input: ReadPlanInput): ReadPlan {
  const websites = input.websites.map((website) => {
    const decisions = input.streams.map((stream) => decide(input, website, stream));
    const read = decisions.filter((d) => d.read).map((d) => d.stream);
    return { id: website.id, decisions, read, skipped: decisions.length > 0 && read.length === 0 };
  });
  const websitesSkipped = websites.filter((w) => w.skipped).length;
  return { websites, websitesRead: websites.length - websitesSkipped, websitesSkipped };
}

/** Whether a skip may leave `stream` out: as `skippable` says, every stream when it says nothing. */
export function isSkippable(input: Pick<ReadPlanInput, 'skippable'>, stream: string): boolean {
  return input.skippable?.(stream) ?? true;
}

function decide(input: ReadPlanInput, website: ListedWebsite, stream: string): StreamDecision {
  const read = (reason: ReadReason): StreamDecision => ({ stream, read: true, reason });
  if (!input.settings.skipUnchanged) return read('every_run');
  if (input.readsWhatItNames) return read('named');
  if (!isSkippable(input, stream)) return read('not_skippable');
  const record = input.coverage(website.id, stream);
  if (record === undefined) return read('no_coverage');
  if (record.last_analysis_at !== website.lastAnalysisAt) return read('changed');
  const readiness = input.readiness(website.id, stream);
  if (!readiness.hasFrontier) return read('no_frontier');
  if (readiness.unfinishedScan) return read('unfinished_scan');
  if (readiness.partialSnapshot) return read('partial_snapshot');
  const { runStartMs, settings } = input;
  if (runStartMs - Date.parse(record.changed_at) < settings.settleForMs) return read('settling');
  const slot = sweepSlotMs(input.workspace, website.id, settings.sweepEveryMs);
  if (runStartMs >= sweepDueAtMs(Date.parse(record.read_started_at), slot, settings.sweepEveryMs))
    return read('sweep_due');
  return { stream, read: false, reason: 'unchanged' };
}
