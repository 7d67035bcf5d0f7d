/**
 * The version tags each analysis carries (spec 2.3, 9.4). Every website's definitions change
 * once on their own (its fourth analysis moves to bundle v2 and `visibility_v2`), so clients
 * always see a version boundary; on top of that a test or a shell can change any tag for
 * every analysis measured from a point in data time on (`changeMetricVersions`), the way the
 * service ships a new metric definition bundle.
 */
import { z } from 'zod';
import {
  metricDefinitionBundleVersionSchema,
  metricDefinitionVersionSchema,
  metricPrecisionVersionSchema,
  projectionVersionSchema,
} from '../../../schemas/analytics.ts';
import { timestampSchema } from '../../../schemas/common.ts';
import { formatIssues } from '../../../schemas/format-issues.ts';
import { METRIC_KEYS, type MetricKey } from '../../../schemas/keys.ts';
import { formatTimestamp, parseTimestamp } from '../timestamps.ts';
import type { Analysis } from './analysis-schedule.ts';

/** The four tags as an analytics `meta` carries them. */
export interface MetricVersionTags {
  projection_version: string;
  metric_definition_bundle_version: string;
  metric_precision_version: string;
  metric_definition_versions: Record<MetricKey, string>;
}

/** Tags to change, each optional; `from` (default: the data time now) is the first `as_of` they apply to. */
export interface MetricVersionChange {
  from?: string;
  projection_version?: string;
  metric_definition_bundle_version?: string;
  metric_precision_version?: string;
  metric_definition_versions?: Partial<Record<MetricKey, string>>;
}

/** A change as recorded: `from` resolved to the instant it names. */
interface ScheduledChange {
  readonly fromMs: number;
  readonly change: Omit<MetricVersionChange, 'from'>;
}

const changeSchema = z.strictObject({
  from: timestampSchema.optional(),
  projection_version: projectionVersionSchema.optional(),
  metric_definition_bundle_version: metricDefinitionBundleVersionSchema.optional(),
  metric_precision_version: metricPrecisionVersionSchema.optional(),
  metric_definition_versions: z
    .strictObject(Object.fromEntries(METRIC_KEYS.map((key) => [key, metricDefinitionVersionSchema.optional()])))
    .optional(),
});

export interface MetricVersionSchedule {
  /** The tags of an analysis: its own boundary, then every change whose `from` is at or before its `as_of`. */
  tagsOf(analysis: Analysis): MetricVersionTags;
  /**
   * Records a change for analyses measured at or after `from`. `from` may not lie before
   * `nowMs`: those analyses may already be published, and published points are immutable.
   * Throws a RangeError naming the bad field. Returns `from` as a timestamp.
   */
  change(change: unknown, nowMs: number): string;
}

function ownTags(analysis: Analysis): MetricVersionTags {
  const bumped = analysis.index >= 3;
  const versions = Object.fromEntries(
    METRIC_KEYS.map((key) => [key, `${key}_v${key === 'visibility' && bumped ? 2 : 1}`]),
  ) as Record<MetricKey, string>;
  return {
    projection_version: 'public_metrics_v2',
    metric_definition_bundle_version: `public_metric_definitions_v${bumped ? 2 : 1}`,
    metric_precision_version: 'metric_precision_v1',
    metric_definition_versions: versions,
  };
}

export function createMetricVersionSchedule(): MetricVersionSchedule {
  // Kept in `from` order; changes with the same `from` apply in the order they were made.
  const changes: ScheduledChange[] = [];
  return {
    tagsOf(analysis) {
      const tags = ownTags(analysis);
      for (const { fromMs, change } of changes) {
        if (fromMs > analysis.asOfMs) break;
        const { metric_definition_versions: definitions, ...bundle } = change;
        Object.assign(tags, bundle);
        Object.assign(tags.metric_definition_versions, definitions);
      }
      return tags;
    },
    change(input, nowMs) {
      const parsed = changeSchema.safeParse(input);
      if (!parsed.success) throw new RangeError(`changeMetricVersions: ${formatIssues(parsed.error)}`);
      const { from, ...change } = parsed.data;
      if (Object.keys(change).length === 0) {
        throw new RangeError(
          'changeMetricVersions: name at least one tag to change (projection_version, metric_definition_bundle_version, metric_precision_version, metric_definition_versions)',
        );
      }
      const fromMs = from === undefined ? nowMs : parseTimestamp(from)!;
      if (fromMs < nowMs) {
        throw new RangeError(
          `changeMetricVersions: from ${from} is before the data time now (${formatTimestamp(nowMs)}): analyses up to now may be published, and published analytics never change`,
        );
      }
      const at = changes.findIndex((scheduled) => scheduled.fromMs > fromMs);
      changes.splice(at === -1 ? changes.length : at, 0, { fromMs, change });
      return formatTimestamp(fromMs);
    },
  };
}
