/**
 * What `aivis status` reads from the destination (no API call): the newest `_aivis_runs` row,
 * the `_aivis_rejected` rows of the runs since the last success, and each configured stream's
 * `_aivis_completeness` rows over the websites still listed; `evaluateStatus` judges them.
 */
import type { Destination } from '../destination/destination.ts';
import { listActiveWebsites } from '../destination/queries/active-websites.ts';
import { countRejected } from '../destination/queries/count-rejected.ts';
import { readRows } from '../destination/queries/read-rows.ts';
import { microsecondTimestamp } from '../destination/timestamp-micros.ts';
import { storedWorkspace } from '../destination/workspace.ts';
import { websitesStream } from '../streams/index.ts';
import { listingScope } from './completeness.ts';
import { changeSettings, type ChangeSettings } from '../plan/change-settings.ts';
import { checkedThroughMs, type CoverageRecord, storedCoverage } from '../plan/coverage.ts';
import { completenessTable, coverageTable, runsTable } from '../tables/index.ts';
import { evaluateStatus, type LastRunRow, type StatusVerdict, type StreamCompleteness } from './staleness.ts';

export interface ReadStatusOptions {
  /** The workspace reported on: its runs, its completeness, its websites. */
  readonly workspace: string;
  /** The configured streams, in registry order. */
  readonly streams: readonly string[];
  readonly now: Date;
  /** From `--max-staleness`; undefined = only a failed last run is stale. */
  readonly maxStalenessSeconds: number | undefined;
  /** The config's `websites.include`: the websites in scope among the current ones (absent: all). */
  readonly include?: readonly string[] | undefined;
  /** The workspace's change-driven read settings: under `skip_unchanged` staleness is judged on `checked_through`. */
  readonly change?: ChangeSettings;
}

function lastRunRow(row: Record<string, unknown>): LastRunRow {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  return {
    id: String(row.id),
    command: String(row.command),
    status: String(row.status),
    started_at: String(row.started_at),
    finished_at: text(row.finished_at),
    counts: String(row.counts),
    error: text(row.error),
  };
}

/** Newest first: by start, then by id (run ids begin with their start time). */
function newestFirst(a: LastRunRow, b: LastRunRow): number {
  const [startA, startB] = [microsecondTimestamp(a.started_at), microsecondTimestamp(b.started_at)];
  if (startA !== startB) return startA < startB ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * Each stream's `complete_through` values over the scopes that still matter: the workspace's
 * listing (`listingScope`) and those of the current websites in scope (a scope is a website id,
 * or the id with a scan filter: `web_1?provider=gemini`). A website in scope with no committed
 * frontier (no completeness row, no coverage row: never read whole) adds a null, so its stream
 * reads as never completed (docs/operations.md#coverage); `checked_through` is the oldest
 * coverage over the websites in scope under `skip_unchanged`.
 */
function streamCompleteness(
  streams: readonly string[],
  rows: readonly Record<string, unknown>[],
  coverage: ReadonlyMap<string, CoverageRecord>,
  scope: ReadonlySet<string>,
  listing: string,
  change: ChangeSettings,
): StreamCompleteness[] {
  return streams.map((stream) => {
    const ofStream = rows.filter((row) => row.stream === stream);
    const values: (string | null)[] = ofStream
      .filter((row) => row.scope === listing || scope.has(String(row.scope).split('?')[0]!))
      .map((row) => String(row.complete_through));
    if (stream === websitesStream.name) {
      const listed = values.length > 0;
      const complete = values.length > 0 ? values : [null];
      return { stream, completeThrough: complete, websites: scope.size, websitesComplete: listed ? scope.size : 0 };
    }
    const completed = new Set(ofStream.map((row) => String(row.scope).split('?')[0]!));
    let websitesComplete = 0;
    let checkedThrough: number | null = Number.POSITIVE_INFINITY;
    for (const id of scope) {
      const record = coverage.get(`${id}\u0000${stream}`);
      if (completed.has(id) || record !== undefined) websitesComplete++;
      else values.push(null);
      if (record === undefined) checkedThrough = null;
      else if (checkedThrough !== null) checkedThrough = Math.min(checkedThrough, checkedThroughMs(record, change));
    }
    return {
      stream,
      completeThrough: values.length > 0 ? values : [null],
      websites: scope.size,
      websitesComplete,
      ...(change.skipUnchanged
        ? {
            checkedThrough:
              checkedThrough === null || !Number.isFinite(checkedThrough)
                ? null
                : new Date(checkedThrough).toISOString(),
          }
        : {}),
    };
  });
}

export async function readStatus(destination: Destination, options: ReadStatusOptions): Promise<StatusVerdict> {
  const { workspace } = options;
  const ofWorkspace = (row: Record<string, unknown>) => storedWorkspace(row._workspace) === workspace;
  // One row per run: small enough to read whole on every warehouse.
  const runs = (await readRows(destination, runsTable)).filter(ofWorkspace).map(lastRunRow).sort(newestFirst);
  const lastSuccess = runs.find((run) => run.status === 'succeeded');
  const since = lastSuccess === undefined ? runs : runs.slice(0, runs.indexOf(lastSuccess));
  // Run ids are the workspace's own, so the rejected rows counted are too.
  const rejected = await countRejected(
    destination,
    since.map((run) => run.id),
  );
  const active = new Set(
    (await listActiveWebsites(destination)).filter((w) => w.workspace === workspace).map((w) => w.id),
  );
  const completeness = (await readRows(destination, completenessTable)).filter(ofWorkspace);
  const scope = new Set([...active].filter((id) => options.include === undefined || options.include.includes(id)));
  const coverage = new Map<string, CoverageRecord>();
  for (const row of (await readRows(destination, coverageTable)).filter(ofWorkspace))
    coverage.set(`${String(row.website_id)}\u0000${String(row.stream)}`, storedCoverage(row, workspace));
  const change = options.change ?? changeSettings(undefined);
  return evaluateStatus({
    lastRun: runs[0] ?? null,
    streams: streamCompleteness(options.streams, completeness, coverage, scope, listingScope(workspace), change),
    skipUnchanged: change.skipUnchanged,
    rejectedSinceLastSuccess: rejected,
    now: options.now,
    maxStalenessSeconds: options.maxStalenessSeconds,
    absent: destination.absent?.(),
  });
}
