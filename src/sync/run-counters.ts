import type { TableSpec } from '../destination/table-spec.ts';
import type { FeedObserver } from '../feed/feed-observer.ts';

/** Live counts of a run: the progress display reads them, the summary and `_aivis_runs` keep them. */
export interface StreamCounts {
  rows: number;
  rejected: number;
  pages: number;
}

export class RunCounters {
  readonly streams: Record<string, StreamCounts> = {};
  websitesPlanned = 0;
  websitesDone = 0;
  /** Change-driven reads (docs/configuration.md#change-driven-reads): websites read, and skipped with every stream unchanged. */
  websitesRead = 0;
  websitesSkippedUnchanged = 0;
  /** One entry per website and stream that failed (after retries); the rest of the run went on. */
  readonly failedWebsites: { websiteId: string; stream: string; error: string }[] = [];
  removedWebsites = 0;
  /** Listed websites that disappeared during the run (feed and website 404); marked removed at its end, counted in `removedWebsites` then. */
  readonly revokedWebsites: string[] = [];
  /** Websites whose citations were read one scan per analysis (the API required analysis_id), and those scans. */
  readonly citationsPerAnalysis = { websites: 0, scans: 0 };
  /** A notice per metric version combination first seen by this run (`src/trust/metric-versions.ts`): series must not be mixed across it. */
  readonly metricVersionNotices: string[] = [];
  /** Rows upserted per table by this run's flushes, as the destination counted them (OpenLineage's `rowCount`). */
  readonly tables: Record<string, number> = {};
  /** Copies of the API key the API sent back inside response bodies, stored as `[REDACTED]` (`src/client/json-body.ts`). */
  echoedKeys = 0;
  /** How the document in force differs from the bundled contract: its drift's changes (docs/served-contract.md#drift). */
  contractChanges = 0;
  /**
   * The tables as this run writes them when schema evolution gave them columns beyond the
   * contract's (docs/served-contract.md#schema-evolution): what the lineage schema facets show.
   */
  evolvedTables: readonly TableSpec[] = [];
  flushes = 0;
  warehouseJobs = 0;
  bytesProcessed = 0;

  stream(name: string): StreamCounts {
    return (this.streams[name] ??= { rows: 0, rejected: 0, pages: 0 });
  }

  get rejected(): number {
    return Object.values(this.streams).reduce((sum, s) => sum + s.rejected, 0);
  }

  get rows(): number {
    return Object.values(this.streams).reduce((sum, s) => sum + s.rows, 0);
  }
}

/** The feed reader's reports, counted into a run's counters. */
export function countingObserver(counters: RunCounters): FeedObserver {
  return {
    pageRead(stream, { rows, rejected }) {
      const counts = counters.stream(stream);
      counts.pages++;
      counts.rows += rows;
      counts.rejected += rejected;
    },
    fellBack(_stream, _websiteId, scans) {
      // Citations are the one stream with a fallback: the summary names them.
      counters.citationsPerAnalysis.websites++;
      counters.citationsPerAnalysis.scans += scans;
    },
    streamFailed(failure) {
      counters.failedWebsites.push({ ...failure });
    },
    websiteRevoked(websiteId) {
      counters.revokedWebsites.push(websiteId);
    },
  };
}
