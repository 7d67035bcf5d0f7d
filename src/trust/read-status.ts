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
import { listingScope } from './completeness.ts';
import { completenessTable, runsTable } from '../tables/index.ts';
import { evaluateStatus, type LastRunRow, type StatusVerdict, type StreamCompleteness } from './staleness.ts';

export interface ReadStatusOptions {
  /** The workspace reported on: its runs, its completeness, its websites. */
  readonly workspace: string;
  /** The configured streams, in registry order. */
  readonly streams: readonly string[];
  readonly now: Date;
  /** From `--max-staleness`; undefined = only a failed last run is stale. */
  readonly maxStalenessSeconds: number | undefined;
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
 * listing (`listingScope`) and those of its websites not marked removed (a scope is a website id, or the id with a
 * scan filter: `web_1?provider=gemini`). A stream without any is one that never completed.
 */
function streamCompleteness(
  streams: readonly string[],
  rows: readonly Record<string, unknown>[],
  active: ReadonlySet<string>,
  listing: string,
): StreamCompleteness[] {
  return streams.map((stream) => {
    const values = rows
      .filter((row) => row.stream === stream)
      .filter((row) => row.scope === listing || active.has(String(row.scope).split('?')[0]!))
      .map((row) => String(row.complete_through));
    return { stream, completeThrough: values.length > 0 ? values : [null] };
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
  return evaluateStatus({
    lastRun: runs[0] ?? null,
    streams: streamCompleteness(options.streams, completeness, active, listingScope(workspace)),
    rejectedSinceLastSuccess: rejected,
    now: options.now,
    maxStalenessSeconds: options.maxStalenessSeconds,
  });
}
