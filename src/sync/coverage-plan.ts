/**
 * Change-driven reads at the call site (docs/configuration.md#change-driven-reads): gathers
 * what the run planner (src/plan/) needs from a run (listing, `_aivis_coverage`, saved state,
 * partial snapshots, the run's start), and after each website's read the `_aivis_coverage`
 * rows of the streams it read whole, added to the flush buffer behind their rows so they are
 * committed with the stream's last flush or after it, never ahead. The protocol modes keep the
 * same records in each incremental stream's state instead (src/protocols/protocol-sink.ts).
 */
import type { Destination } from '../destination/destination.ts';
import { partialSnapshots } from '../destination/queries/partial-snapshots.ts';
import { readRows } from '../destination/queries/read-rows.ts';
import { storedWorkspace } from '../destination/workspace.ts';
import type { PlannedWebsite } from '../feed/list-websites.ts';
import { type ChangeSettings, changeSettings, type ChangeSettingsInput } from '../plan/change-settings.ts';
import {
  type CoverageRecord,
  coverageAfterCheck,
  coverageAfterRead,
  type CoverageRun,
  storedCoverage,
} from '../plan/coverage.ts';
import { isSkippable, planReads, type ReadPlan, type StreamReadiness } from '../plan/read-plan.ts';
import type { StateEntry } from '../state/state-entry.ts';
import { analyticsStream, websiteStreams } from '../streams/index.ts';
import { coverageTable } from '../tables/index.ts';
import type { FeedSink } from '../feed/durable-unit.ts';

/** A run's change-driven plan and what it needs to write coverage after each website. */
export interface CoveragePlan {
  readonly plan: ReadPlan;
  /** The streams to read of a website, in registry order; undefined when every one is skipped as unchanged. */
  streamsOf(websiteId: string): readonly string[] | undefined;
  /** Units of coverage rows: the skipped streams' checks (once, after the listing). */
  checked(sink: FeedSink): Promise<void>;
  /** The coverage rows of the streams `website` read whole (none failed for it) into `sink`. */
  read(website: PlannedWebsite, whole: (stream: string) => boolean, sink: FeedSink): Promise<void>;
}

/** What a run's change-driven plan is made of, wherever its coverage and state are kept. */
export interface CoverageInputs {
  readonly workspace: string;
  /** The workspace's `skip_unchanged`, `sweep_every` and `settle_for`. */
  readonly settings: ChangeSettings;
  readonly streams: readonly string[];
  readonly websites: readonly PlannedWebsite[];
  /** The saved state the run resumes from. */
  readonly saved: readonly StateEntry[];
  readonly run: CoverageRun;
  /** `--full-refresh` or `--websites`: everything named is read. */
  readonly readsWhatItNames: boolean;
  /** Whether a read whole of this run counts as coverage (a backfill's window does not). */
  readonly recordsCoverage: boolean;
  /** Streams a skip may leave out, and the only ones whose coverage is kept (protocol modes: the incremental ones); default all. */
  readonly skippable?: (stream: string) => boolean;
}

export interface CoveragePlanInput extends Omit<CoverageInputs, 'settings'> {
  readonly destination: Destination;
  /** The workspace's source block, where `skip_unchanged`, `sweep_every` and `settle_for` are set. */
  readonly source: ChangeSettingsInput | undefined;
}

/** The plan over the destination's `_aivis_coverage` rows and partial snapshots. */
export async function planCoverage(input: CoveragePlanInput): Promise<CoveragePlan> {
  const { workspace } = input;
  const records: CoverageRecord[] = [];
  for (const row of await readRows(input.destination, coverageTable))
    if (storedWorkspace(row._workspace) === workspace) records.push(storedCoverage(row, workspace));
  const settings = changeSettings(input.source);
  const partial = settings.skipUnchanged ? await partialSnapshots(input.destination) : new Set<string>();
  return coveragePlanOf({ ...input, settings }, records, partial);
}

/**
 * The plan over coverage records however kept (`_aivis_coverage`, a protocol stream's state),
 * with the websites whose latest snapshot was partial.
 */
export function coveragePlanOf(
  input: CoverageInputs,
  stored: readonly CoverageRecord[],
  partial: ReadonlySet<string>,
): CoveragePlan {
  const { workspace, run, settings } = input;
  const records = new Map(stored.map((record) => [key(record.website_id, record.stream), record]));
  const streams = websiteStreams(input.streams as never).map((s) => s.name);
  const scans = scanReadiness(input.saved);
  const plan = planReads({
    workspace,
    settings,
    runStartMs: Date.parse(run.startedAt),
    readsWhatItNames: input.readsWhatItNames,
    streams,
    websites: input.websites.map((w) => ({ id: w.id, lastAnalysisAt: w.lastAnalysisAt ?? null })),
    coverage: (id, stream) => records.get(key(id, stream)),
    // A snapshot's frontier is its coverage (read whole); a feed's, its saved scans.
    readiness: (id, stream) =>
      stream === analyticsStream.name
        ? { hasFrontier: records.has(key(id, stream)), unfinishedScan: false, partialSnapshot: partial.has(id) }
        : (scans.get(key(id, stream)) ?? NO_SCAN),
    skippable: input.skippable,
  });
  const byId = new Map(plan.websites.map((w) => [w.id, w]));
  const put = (sink: FeedSink, rows: CoverageRecord[]) =>
    input.recordsCoverage && rows.length > 0
      ? sink.add({ tables: [{ table: coverageTable, rows: rows.map((row) => ({ ...row })) }] })
      : undefined;
  return {
    plan,
    streamsOf: (id) => {
      const website = byId.get(id);
      return website?.skipped ? undefined : (website?.read ?? streams);
    },
    async checked(sink) {
      const rows = plan.websites.flatMap((w) =>
        w.decisions.filter((d) => !d.read).map((d) => coverageAfterCheck(records.get(key(w.id, d.stream))!, run)),
      );
      await put(sink, rows);
    },
    async read(website, whole, sink) {
      const rows = (byId.get(website.id)?.read ?? [])
        .filter((stream) => isSkippable(input, stream) && whole(stream))
        .map((stream) =>
          coverageAfterRead(
            records.get(key(website.id, stream)),
            { websiteId: website.id, stream, lastAnalysisAt: website.lastAnalysisAt ?? null },
            run,
          ),
        );
      await put(sink, rows);
    },
  };
}

const key = (websiteId: string, stream: string) => `${websiteId}\u0000${stream}`;

const NO_SCAN: StreamReadiness = { hasFrontier: false, unfinishedScan: false, partialSnapshot: false };

/**
 * Per website and feed: a committed frontier in any of the website's scopes (`web_1`,
 * `web_1?provider=gemini`), and whether a cursor in any says a scan is unfinished.
 */
function scanReadiness(saved: readonly StateEntry[]): Map<string, StreamReadiness> {
  const scans = new Map<string, StreamReadiness>();
  for (const { stream, scope, state } of saved) {
    const id = key(scope.split('?')[0]!, stream);
    const before = scans.get(id) ?? NO_SCAN;
    scans.set(id, {
      hasFrontier: before.hasFrontier || state.frontier !== null,
      unfinishedScan: before.unfinishedScan || state.cursor !== null,
      partialSnapshot: false,
    });
  }
  return scans;
}
