/**
 * Analytics (spec 2.3, 2.4): the latest snapshot, its provider and competitor breakdowns, and
 * history points. Every listed key is required; a missing measurement is null, never absent.
 */
import { z } from 'zod';
import {
  COMPETITOR_COUNT_KEYS,
  COMPETITOR_METRIC_KEYS,
  COMPETITOR_REASONS,
  COUNT_KEYS,
  METRIC_KEYS,
  PROVIDER_COUNT_KEYS,
  WEBSITE_REASONS,
} from './keys.ts';
import {
  analysisIdSchema,
  countSchema,
  looseRecord,
  nullableTimestampSchema,
  percentSchema,
  providerNameSchema,
  requestIdSchema,
  textSchema,
  timestampSchema,
  websiteIdSchema,
} from './common.ts';
import { mustBe, mustBeOrNull } from './issue-message.ts';

const positionSchema = z
  .number({ error: mustBeOrNull('a number of at least 1') })
  .min(1)
  .nullable();

/** One schema per key, every key required. */
const allOf = <Key extends string, Schema extends z.ZodType>(keys: readonly Key[], schema: Schema) =>
  Object.fromEntries(keys.map((key) => [key, schema])) as Record<Key, Schema>;

/** Metrics are percentages except the mention position, which is a rank (>= 1). */
const metricShape = <Key extends string>(keys: readonly Key[]) => ({
  ...allOf(
    keys.filter((key) => key !== 'average_mention_position'),
    percentSchema,
  ),
  average_mention_position: positionSchema,
});

export const metricsSchema = looseRecord(metricShape(METRIC_KEYS));
export type Metrics = z.infer<typeof metricsSchema>;

export const countsSchema = looseRecord(allOf(COUNT_KEYS, countSchema));
export type Counts = z.infer<typeof countsSchema>;

export const providerCountsSchema = looseRecord(allOf(PROVIDER_COUNT_KEYS, countSchema));
export const competitorMetricsSchema = looseRecord(metricShape(COMPETITOR_METRIC_KEYS));
export const competitorCountsSchema = looseRecord(allOf(COMPETITOR_COUNT_KEYS, countSchema));

/**
 * Why a metric is null: keys are metric names, values come from a documented reason list.
 * Unlike resource objects these maps are closed: a key outside the list is a contract break.
 */
const reasonsSchema = <Key extends string, Reason extends string>(
  keys: readonly [Key, ...Key[]],
  reasons: readonly [Reason, ...Reason[]],
) =>
  z.partialRecord(z.enum(keys), z.enum(reasons, { error: mustBe(`one of ${reasons.join(', ')}`) }), {
    error: mustBe('an object'),
  });

export const unavailableReasonsSchema = reasonsSchema(METRIC_KEYS, WEBSITE_REASONS);
export const competitorUnavailableReasonsSchema = reasonsSchema(COMPETITOR_METRIC_KEYS, COMPETITOR_REASONS);
export type UnavailableReasons = z.infer<typeof unavailableReasonsSchema>;

export const providerEntrySchema = looseRecord({
  provider: providerNameSchema,
  metrics: metricsSchema,
  counts: providerCountsSchema,
  unavailable_reasons: unavailableReasonsSchema,
});
export type ProviderEntry = z.infer<typeof providerEntrySchema>;

export const competitorEntrySchema = looseRecord({
  competitor_domain: textSchema(1, 253),
  metrics: competitorMetricsSchema,
  counts: competitorCountsSchema,
  unavailable_reasons: competitorUnavailableReasonsSchema,
});
export type CompetitorEntry = z.infer<typeof competitorEntrySchema>;

/** `data` of GET .../analytics. `providers`/`competitors` appear only when asked for by `include`. */
export const snapshotDataSchema = looseRecord({
  website_id: websiteIdSchema,
  analysis_id: analysisIdSchema.nullable(),
  as_of: nullableTimestampSchema,
  available_at: nullableTimestampSchema,
  metrics: metricsSchema,
  counts: countsSchema,
  providers: z.array(providerEntrySchema, { error: mustBe('an array') }).optional(),
  competitors: z.array(competitorEntrySchema, { error: mustBe('an array') }).optional(),
});
export type SnapshotData = z.infer<typeof snapshotDataSchema>;

const versionTag = (pattern: RegExp, max: number, example: string) =>
  z
    .string({ error: mustBe(`a version tag like ${example} (at most ${max} characters)`) })
    .max(max)
    .regex(pattern);

/** The version tags of an analysis (spec 2.3, 9.4), one schema each, so a partial change of them can be checked too. */
export const projectionVersionSchema = versionTag(/^public_metrics_v\d+$/, 40, 'public_metrics_v1');
export const metricDefinitionBundleVersionSchema = versionTag(
  /^public_metric_definitions_v(?:0|[1-9]\d*)$/,
  64,
  'public_metric_definitions_v1',
);
export const metricPrecisionVersionSchema = versionTag(/^metric_precision_v(?:0|[1-9]\d*)$/, 64, 'metric_precision_v1');
/** The definition version of one metric, e.g. `visibility_v2`. */
export const metricDefinitionVersionSchema = versionTag(/^[a-z][a-z0-9_]*_v(?:0|[1-9]\d*)$/, 96, 'visibility_v1');

/**
 * Version tags and quality flags of a snapshot (spec 2.3, 9.4). The spec's prose also names
 * `is_partial_data` and `postprocess_status` without placing them; loose objects keep them in
 * `_raw` wherever they turn up, and `data_quality.is_partial` is the documented flag.
 */
const snapshotVersionShape = {
  projection_version: projectionVersionSchema,
  metric_definition_bundle_version: metricDefinitionBundleVersionSchema,
  metric_precision_version: metricPrecisionVersionSchema,
  metric_definition_versions: looseRecord(allOf(METRIC_KEYS, metricDefinitionVersionSchema)),
  unavailable_reasons: unavailableReasonsSchema,
  data_quality: looseRecord({ is_partial: z.boolean({ error: mustBe('true or false') }) }),
};

/** `meta` of GET .../analytics. */
export const snapshotMetaSchema = looseRecord({
  request_id: requestIdSchema,
  includes: z
    .array(z.enum(['providers', 'competitors'], { error: mustBe('providers or competitors') }), {
      error: mustBe('an array of at most 2 items'),
    })
    .max(2),
  ...snapshotVersionShape,
});
export type SnapshotMeta = z.infer<typeof snapshotMetaSchema>;

/** One immutable point of GET .../analytics/history (spec 2.4): measured, so ids and times are set. */
export const historyPointSchema = looseRecord({
  website_id: websiteIdSchema,
  analysis_id: analysisIdSchema,
  as_of: timestampSchema,
  available_at: timestampSchema,
  metrics: metricsSchema,
  counts: countsSchema,
  meta: looseRecord(snapshotVersionShape),
});
export type HistoryPoint = z.infer<typeof historyPointSchema>;
