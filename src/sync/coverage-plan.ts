/**
 * Change-driven reads at the call site (docs/configuration.md#change-driven-reads): gathers
 * what the run planner (src/plan/) needs from a run (listing, `_aivis_coverage`, saved state,
 * partial snapshots, the run's start), and after each website's read the `_aivis_coverage`
 * rows of the streams it read whole, added to the flush buffer behind their rows so they are
 * committed with the stream's last flush or after it, never ahead.
 */
import type { Destination } from '../destination/destination.ts';
import { partialSnapshots } from '../destination/queries/partial-snapshots.ts';
import { readRows } from '../destination/queries/read-rows.ts';
import { storedWorkspace } from '../destination/workspace.ts';
import type { PlannedWebsite } from '../feed/list-websites.ts';
import { changeSettings, type ChangeSettingsInput } from '../plan/change-settings.ts';
import {
  type CoverageRecord,
  coverageAfterCheck,
  coverageAfterRead,
  type CoverageRun,
  storedCoverage,
} from '../plan/coverage.ts';
import { planReads, type ReadPlan, type StreamReadiness } from '../plan/read-plan.ts';
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

export interface CoveragePlanInput {
  readonly destination: Destination;
  readonly workspace: string;
  /** The workspace's source block: `skip_unchanged`, `sweep_every`, `settle_for`. */
  readonly source: ChangeSettingsInput | undefined;
  readonly streams: readonly string[];
  readonly websites: readonly PlannedWebsite[];
  /** The saved state the run resumes from. */
  readonly saved: readonly StateEntry[];
  readonly run: CoverageRun;
  /** `--full-refresh` or `--websites`: everything named is read. */
  readonly readsWhatItNames: boolean;
  /** Whether a read whole of this run counts as coverage (a backfill's window does not). */
  readonly recordsCoverage: boolean;
}

export async function planCoverage(input: CoveragePlanInput): Promise<CoveragePlan> {
  const { workspace, run } = input;
  const records = new Map<string, CoverageRecord>();
  for (const row of await readRows(input.destination, coverageTable)) {
    if (storedWorkspace(row._workspace) !== workspace) continue;
    const record = storedCoverage(row, workspace);
    records.set(key(record.website_id, record.stream), record);
  }
  const settings = changeSettings(input.source);
  const partial = settings.skipUnchanged ? await partialSnapshots(input.destination) : new Set<string>();
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
        .filter(whole)
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
