/**
 * A coverage record: what the run planner knows of one workspace, website and stream, as the
 * engine table `_aivis_coverage` keeps it (src/destination/engine-tables.ts), and how a run
 * moves it. Timestamps are ISO 8601 text; `last_analysis_at` is the listing's text verbatim.
 */
import type { ChangeSettings } from './change-settings.ts';

export interface CoverageRecord {
  readonly _workspace: string;
  readonly website_id: string;
  readonly stream: string;
  /** As listed when the stream was last read whole for the website; null for a website not yet measured. */
  readonly last_analysis_at: string | null;
  /** The start of that run. */
  readonly read_started_at: string;
  readonly read_run_id: string;
  /** The start of the run that first saw this `last_analysis_at`. */
  readonly changed_at: string;
  /** The start of the last run whose complete listing showed the website unchanged; null before any. */
  readonly checked_at: string | null;
}

/** One run as the coverage it writes names it. */
export interface CoverageRun {
  readonly workspace: string;
  readonly runId: string;
  /** The run's start (ISO 8601). */
  readonly startedAt: string;
}

/** The record after `run` read the stream whole for a website listed with `lastAnalysisAt`. */
export function coverageAfterRead(
  previous: CoverageRecord | undefined,
  target: { readonly websiteId: string; readonly stream: string; readonly lastAnalysisAt: string | null },
  run: CoverageRun,
): CoverageRecord {
  const same = previous !== undefined && previous.last_analysis_at === target.lastAnalysisAt;
  return {
    _workspace: run.workspace,
    website_id: target.websiteId,
    stream: target.stream,
    last_analysis_at: target.lastAnalysisAt,
    read_started_at: run.startedAt,
    read_run_id: run.runId,
    changed_at: same ? previous.changed_at : run.startedAt,
    checked_at: same ? previous.checked_at : null,
  };
}

/** The record after `run`'s complete listing showed the website unchanged and the stream was skipped. */
export function coverageAfterCheck(previous: CoverageRecord, run: CoverageRun): CoverageRecord {
  return { ...previous, checked_at: run.startedAt };
}

/**
 * How far a website's stream is known current under `skip_unchanged` (docs/operations.md#coverage):
 * `min(max(read_started_at, checked_at), read_started_at + sweep_every)`: a check that saw no
 * change vouches for the listing, and evidence published after it is owed by the next sweep.
 */
export function checkedThroughMs(record: CoverageRecord, settings: Pick<ChangeSettings, 'sweepEveryMs'>): number {
  const read = Date.parse(record.read_started_at);
  const checked = record.checked_at === null ? read : Date.parse(record.checked_at);
  return Math.min(Math.max(read, checked), read + settings.sweepEveryMs);
}

/** A stored `_aivis_coverage` row read back (timestamps as text or dates, as the warehouse gives them). */
export function storedCoverage(row: Readonly<Record<string, unknown>>, workspace: string): CoverageRecord {
  const time = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
  const optional = (value: unknown, as: (value: unknown) => string) =>
    value === null || value === undefined ? null : as(value);
  return {
    _workspace: workspace,
    website_id: String(row.website_id),
    stream: String(row.stream),
    last_analysis_at: optional(row.last_analysis_at, String),
    read_started_at: time(row.read_started_at),
    read_run_id: String(row.read_run_id),
    changed_at: time(row.changed_at),
    checked_at: optional(row.checked_at, time),
  };
}
