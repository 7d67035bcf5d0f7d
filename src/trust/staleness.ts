/**
 * `aivis status`: is the warehouse fresh? A stream is as fresh as its least complete scope
 * (the oldest `complete_through` of `_aivis_completeness` over the scopes still synced); it
 * is stale when that is older than `--max-staleness`, or when a scope never completed. A
 * failed last run is stale too, whatever the ages say: the next one may fail the same way.
 */
import { microsecondTimestamp } from '../destination/timestamp-micros.ts';
import { ExitCode } from '../errors.ts';

/** The `_aivis_runs` row of the newest run, as stored (`counts` is JSON text). */
export interface LastRunRow {
  readonly id: string;
  readonly command: string;
  readonly status: string;
  readonly started_at: string;
  readonly finished_at: string | null;
  readonly counts: string;
  readonly error: string | null;
}

/** One configured stream and the `complete_through` of each scope it syncs (null: never completed). */
export interface StreamCompleteness {
  readonly stream: string;
  readonly completeThrough: readonly (string | null)[];
  /** Current websites in the config's scope, and those with a committed frontier for the stream. */
  readonly websites?: number;
  readonly websitesComplete?: number;
  /** Under `skip_unchanged`: the oldest `through` over the websites in scope (null: one has none). */
  readonly checkedThrough?: string | null;
}

export interface StatusInput {
  readonly lastRun: LastRunRow | null;
  readonly streams: readonly StreamCompleteness[];
  /** `_aivis_rejected` rows written since the last run that ended `succeeded`. */
  readonly rejectedSinceLastSuccess: number;
  readonly now: Date;
  /** From `--max-staleness`; undefined = only a failed last run is stale. */
  readonly maxStalenessSeconds: number | undefined;
  /** Under `skip_unchanged` ages are judged on `checked_through` (docs/operations.md#coverage). */
  readonly skipUnchanged?: boolean;
  /** Why the destination holds nothing yet, when what the config names does not exist (`Destination.absent`). */
  readonly absent?: string | undefined;
}

export interface StreamStatus {
  readonly stream: string;
  readonly complete_through: string | null;
  /** Under `skip_unchanged`, `checked_through`'s age; otherwise `complete_through`'s. */
  readonly age_seconds: number | null;
  readonly stale: boolean;
  /** Current websites in scope, those that completed the stream, and how far they are known current. */
  readonly websites: number | null;
  readonly websites_complete: number | null;
  readonly checked_through: string | null;
}

/** What `aivis status --json` prints. */
export interface StatusReport {
  readonly last_run: {
    readonly id: string;
    readonly command: string;
    readonly status: string;
    readonly started_at: string;
    readonly finished_at: string | null;
    readonly counts: unknown;
    readonly error: string | null;
  } | null;
  readonly rejected_since_last_success: number;
  readonly streams: readonly StreamStatus[];
  readonly stale: boolean;
}

export interface StatusVerdict {
  readonly report: StatusReport;
  /**
   * The verdict in words that claim no more than was judged: `fresh` only when every stream's
   * age was held against `--max-staleness`; without one, ages are shown but not judged.
   */
  readonly headline: string;
  /** Why the report is stale, one line each, for the text output and the log. */
  readonly reasons: readonly string[];
  readonly exitCode: typeof ExitCode.Success | typeof ExitCode.Stale;
}

/** Statuses of a run that ended without finishing its work (`abandoned`: killed before it could say). */
const FAILED_RUN_STATUSES = new Set(['failed', 'abandoned']);

/** The oldest of the scopes' frontiers; null when a scope never completed, or there is no scope. */
export function oldestCompleteThrough(values: readonly (string | null)[]): string | null {
  let oldest: string | null = null;
  for (const value of values) {
    if (value === null) return null;
    if (oldest === null || microsecondTimestamp(value) < microsecondTimestamp(oldest)) oldest = value;
  }
  return oldest;
}

/** `2d 3h`, `6h 5m`, `90s`: the two largest units, enough for an alert line. */
export function formatAge(seconds: number): string {
  const parts: [number, string][] = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor((seconds % 86_400) / 3600), 'h'],
    [Math.floor((seconds % 3600) / 60), 'm'],
    [seconds % 60, 's'],
  ];
  const first = parts.findIndex(([amount]) => amount > 0);
  if (first === -1) return '0s';
  return parts
    .slice(first, first + 2)
    .filter(([amount]) => amount > 0)
    .map(([amount, unit]) => `${amount}${unit}`)
    .join(' ');
}

function streamStatus(input: StatusInput, stream: StreamCompleteness): StreamStatus {
  const completeThrough = oldestCompleteThrough(stream.completeThrough);
  const neverCompleted = stream.completeThrough.some((value) => value === null);
  // Without skip_unchanged a stream is checked through its committed frontier.
  const checkedThrough = stream.checkedThrough === undefined ? completeThrough : stream.checkedThrough;
  const judged = input.skipUnchanged ? checkedThrough : completeThrough;
  // A frontier ahead of this machine's clock (skew) is fresh, not negative.
  const age = judged === null ? null : Math.max(0, Math.floor((input.now.getTime() - Date.parse(judged)) / 1000));
  const limit = input.maxStalenessSeconds;
  // A website in scope that never completed the stream is stale whatever the limit: nothing vouches for it.
  const incomplete = (stream.websitesComplete ?? 0) < (stream.websites ?? 0);
  const stale = incomplete || (limit !== undefined && (neverCompleted || (age !== null && age > limit)));
  return {
    stream: stream.stream,
    complete_through: completeThrough,
    age_seconds: age,
    stale,
    websites: stream.websites ?? null,
    websites_complete: stream.websitesComplete ?? null,
    checked_through: checkedThrough,
  };
}

function lastRunReport(row: LastRunRow): NonNullable<StatusReport['last_run']> {
  return {
    id: row.id,
    command: row.command,
    status: row.status,
    started_at: row.started_at,
    finished_at: row.finished_at,
    counts: JSON.parse(row.counts),
    error: row.error,
  };
}

export function evaluateStatus(input: StatusInput): StatusVerdict {
  const streams = input.streams.map((stream) => streamStatus(input, stream));
  const reasons: string[] = [];
  const run = input.lastRun;
  if (run === null && input.absent !== undefined) {
    reasons.push(`${input.absent}: nothing has been synced there yet`);
  } else if (run === null) reasons.push('no run is recorded in _aivis_runs: nothing has been synced yet');
  else if (FAILED_RUN_STATUSES.has(run.status)) {
    reasons.push(`the last run ${run.id} (${run.command}) ${run.status}${run.error === null ? '' : `: ${run.error}`}`);
  }
  const limit = input.maxStalenessSeconds;
  for (const stream of streams.filter((s) => s.stale)) {
    const never = (stream.websites ?? 0) - (stream.websites_complete ?? 0);
    if (never > 0) {
      reasons.push(`${stream.stream}: ${never} of ${stream.websites} websites in scope never completed`);
      continue;
    }
    const judged = input.skipUnchanged ? 'checked through' : 'complete through';
    const through = input.skipUnchanged ? stream.checked_through : stream.complete_through;
    reasons.push(
      through === null
        ? `${stream.stream} has a scope that never completed a scan`
        : `${stream.stream} is ${judged} ${through}, ${formatAge(stream.age_seconds!)} ago: older than --max-staleness ${formatAge(limit!)}`,
    );
  }
  const stale = reasons.length > 0;
  return {
    headline: stale
      ? 'STALE'
      : limit === undefined
        ? `ok: last run ${run!.status}; stream ages not judged (give --max-staleness, e.g. 6h)`
        : `fresh: every stream complete within ${formatAge(limit)}; last run ${run!.status}`,
    report: {
      last_run: run === null ? null : lastRunReport(run),
      rejected_since_last_success: input.rejectedSinceLastSuccess,
      streams,
      stale,
    },
    reasons,
    exitCode: stale ? ExitCode.Stale : ExitCode.Success,
  };
}
