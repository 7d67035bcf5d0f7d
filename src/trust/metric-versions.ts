/**
 * The ledger behind `metric_versions` (the table: `src/destination/engine-tables.ts`): which combinations of
 * version tags one workspace's analytics rows carried, from when to when, on how many of its
 * websites, first seen by which of its runs; and, for each combination a run sees for the first
 * time in its workspace, the notice the summary and `_aivis_runs.counts` give: a dashboard that
 * plots one series across it mixes two definitions of the metric.
 */
import type { TableRows } from '../destination/destination.ts';
import { microsecondTimestamp } from '../destination/timestamp-micros.ts';
import type { Row, RowOf } from '../destination/table-spec.ts';
import { storedWorkspace } from '../destination/workspace.ts';
import { analyticsHistoryTable, analyticsLatestTable, metricVersionsTable } from '../tables/index.ts';

export type MetricVersionRow = RowOf<typeof metricVersionsTable>;

/** The tables whose rows carry the version tags: the latest snapshot and the history points. */
const TAGGED_TABLES = new Set<string>([analyticsLatestTable.name, analyticsHistoryTable.name]);

/** The four version tags of an analytics row (spec 2.3, 9.4). */
export interface VersionTags {
  readonly projection_version: string;
  readonly metric_definition_bundle_version: string;
  readonly metric_precision_version: string;
  readonly metric_definition_versions: Readonly<Record<string, string>>;
}

/** One analytics row as the engine loads it (latest snapshot or history point). */
export interface AnalyticsObservation extends VersionTags {
  readonly website_id: string;
  /** Null on a snapshot that has none: it says nothing about when its versions applied, so it is not counted. */
  readonly as_of: string | null;
  readonly run_id: string;
}

/** Said once, by the run that first sees a combination. */
export interface MetricVersionNotice {
  readonly version_key: string;
  readonly first_as_of: string;
  /**
   * e.g. `new combination of metric versions from 2026-03-01T00:00:00Z: public_metric_definitions_v13,
   * public_metrics_v2, metric_precision_v1, average_mention_position_v1, citation_share_v1, sentiment_v1,
   * share_of_voice_v1, visibility_v2 (was public_metric_definitions_v12): do not mix series across it`
   */
  readonly text: string;
}

interface Combination {
  readonly key: string;
  readonly tags: VersionTags;
  firstAsOf: string;
  lastAsOf: string;
  readonly websites: Set<string>;
  readonly firstRunId: string;
  /** Not in the table when the ledger was loaded. */
  readonly isNew: boolean;
  /** Created or widened since the rows were last taken. */
  changed: boolean;
}

function sortedEntries(record: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The combination's identity: canonical JSON of the four tags, keys sorted at both levels, so
 * the same tags in another key order are the same combination.
 */
export function versionKey(tags: VersionTags): string {
  return JSON.stringify({
    metric_definition_bundle_version: tags.metric_definition_bundle_version,
    metric_definition_versions: sortedEntries(tags.metric_definition_versions),
    metric_precision_version: tags.metric_precision_version,
    projection_version: tags.projection_version,
  });
}

/** Instants in any of the API's forms (seconds optional, any fraction) compared as instants. */
const earlier = (a: string, b: string) => microsecondTimestamp(a) < microsecondTimestamp(b);

/** A combination's tags in one order, each self-describing (`public_metric_definitions_v2`, `visibility_v2`). */
function tagList(tags: VersionTags): string[] {
  return [
    tags.metric_definition_bundle_version,
    tags.projection_version,
    tags.metric_precision_version,
    ...Object.values(sortedEntries(tags.metric_definition_versions)),
  ];
}

/**
 * The notice of a combination: named whole (a tag it shares with the one before is still part
 * of what is new: `visibility_v1` under a new bundle is a new series), then the tags that the
 * combination before it in `first_as_of` order had instead.
 */
function noticeText(tags: VersionTags, before: VersionTags, firstAsOf: string): string {
  const previous = tagList(before);
  const replaced = previous.filter((tag) => !tagList(tags).includes(tag));
  const was = replaced.length > 0 ? ` (was ${replaced.join(', ')})` : '';
  return `new combination of metric versions from ${firstAsOf}: ${tagList(tags).join(', ')}${was}: do not mix series across it`;
}

export class MetricVersionLedger {
  readonly #workspace: string;
  readonly #combinations = new Map<string, Combination>();

  private constructor(workspace: string) {
    this.#workspace = workspace;
  }

  /**
   * `workspace`'s ledger as `metric_versions` holds it (rows in the table's logical form: JSON
   * as text); other workspaces' rows are theirs to widen and announce.
   */
  static load(rows: readonly Readonly<Record<string, unknown>>[], workspace: string): MetricVersionLedger {
    const ledger = new MetricVersionLedger(workspace);
    for (const row of rows) {
      if (storedWorkspace(row._workspace) !== workspace) continue;
      const tags: VersionTags = {
        projection_version: String(row.projection_version),
        metric_definition_bundle_version: String(row.metric_definition_bundle_version),
        metric_precision_version: String(row.metric_precision_version),
        metric_definition_versions: JSON.parse(String(row.metric_definition_versions)),
      };
      ledger.#combinations.set(String(row.version_key), {
        key: String(row.version_key),
        tags,
        firstAsOf: String(row.first_as_of),
        lastAsOf: String(row.last_as_of),
        websites: new Set(JSON.parse(String(row.website_ids)) as string[]),
        firstRunId: String(row.first_run_id),
        isNew: false,
        changed: false,
      });
    }
    return ledger;
  }

  observe(row: AnalyticsObservation): void {
    if (row.as_of === null) return;
    const key = versionKey(row);
    const known = this.#combinations.get(key);
    if (!known) {
      this.#combinations.set(key, {
        key,
        tags: {
          projection_version: row.projection_version,
          metric_definition_bundle_version: row.metric_definition_bundle_version,
          metric_precision_version: row.metric_precision_version,
          metric_definition_versions: sortedEntries(row.metric_definition_versions),
        },
        firstAsOf: row.as_of,
        lastAsOf: row.as_of,
        websites: new Set([row.website_id]),
        firstRunId: row.run_id,
        isNew: true,
        changed: true,
      });
      return;
    }
    const widens =
      earlier(row.as_of, known.firstAsOf) || earlier(known.lastAsOf, row.as_of) || !known.websites.has(row.website_id);
    if (!widens) return;
    if (earlier(row.as_of, known.firstAsOf)) known.firstAsOf = row.as_of;
    if (earlier(known.lastAsOf, row.as_of)) known.lastAsOf = row.as_of;
    known.websites.add(row.website_id);
    known.changed = true;
  }

  /**
   * Observes the analytics rows of a flush about to be committed and returns the
   * `metric_versions` part to commit with it: the combinations those rows created or widened.
   */
  observeFlush(tables: readonly TableRows[]): TableRows[] {
    for (const { table, rows } of tables) {
      if (!TAGGED_TABLES.has(table.name)) continue;
      for (const row of rows) this.observe(observationOf(row));
    }
    const rows = this.takeChangedRows();
    return rows.length > 0 ? [{ table: metricVersionsTable, rows }] : [];
  }

  /** Rows of the combinations created or changed since the last take (or the load), in key order. */
  takeChangedRows(): MetricVersionRow[] {
    const changed = this.#ordered((a, b) => (a.key < b.key ? -1 : 1)).filter((c) => c.changed);
    for (const combination of changed) combination.changed = false;
    return changed.map((c) => ({
      _workspace: this.#workspace,
      version_key: c.key,
      projection_version: c.tags.projection_version,
      metric_definition_bundle_version: c.tags.metric_definition_bundle_version,
      metric_precision_version: c.tags.metric_precision_version,
      metric_definition_versions: JSON.stringify(c.tags.metric_definition_versions),
      first_as_of: c.firstAsOf,
      last_as_of: c.lastAsOf,
      websites: c.websites.size,
      website_ids: JSON.stringify([...c.websites].sort()),
      first_run_id: c.firstRunId,
    }));
  }

  /**
   * A notice for each combination first seen since loading, naming it whole and what the
   * combination before it in `first_as_of` order had instead. The earliest combination of all is the
   * baseline: there is no series before it to mix with, so it gets none.
   */
  notices(): MetricVersionNotice[] {
    const ordered = this.#ordered((a, b) =>
      earlier(a.firstAsOf, b.firstAsOf) ? -1 : earlier(b.firstAsOf, a.firstAsOf) ? 1 : a.key < b.key ? -1 : 1,
    );
    return ordered.flatMap((combination, i) => {
      if (!combination.isNew || i === 0) return [];
      return [
        {
          version_key: combination.key,
          first_as_of: combination.firstAsOf,
          text: noticeText(combination.tags, ordered[i - 1]!.tags, combination.firstAsOf),
        },
      ];
    });
  }

  #ordered(compare: (a: Combination, b: Combination) => number): Combination[] {
    return [...this.#combinations.values()].sort(compare);
  }
}

/** An analytics row (latest or history) as the ledger observes it. */
function observationOf(row: Row): AnalyticsObservation {
  return {
    website_id: String(row.website_id),
    as_of: row.as_of === null ? null : String(row.as_of),
    run_id: String(row._run_id),
    projection_version: String(row.projection_version),
    metric_definition_bundle_version: String(row.metric_definition_bundle_version),
    metric_precision_version: String(row.metric_precision_version),
    metric_definition_versions: JSON.parse(String(row.metric_definition_versions)),
  };
}
