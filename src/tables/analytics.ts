import {
  COMPETITOR_COUNT_KEYS,
  COMPETITOR_METRIC_KEYS,
  COUNT_KEYS,
  METRIC_KEYS,
  PROVIDER_COUNT_KEYS,
} from '../../schemas/keys.ts';
import { column, holdingJson, tableSpec } from '../destination/table-spec.ts';
import { LOAD_COLUMNS } from './common-columns.ts';
import {
  COMPETITOR_COUNT_DESCRIPTIONS,
  COMPETITOR_METRIC_DESCRIPTIONS,
  COMPETITOR_REASONS_DESCRIPTION,
  COUNT_DESCRIPTIONS,
  METRIC_DESCRIPTIONS,
  REASONS_DESCRIPTION,
} from './metric-descriptions.ts';

/** The version tags every analytics row carries (spec 2.3, 9.4), plus the partial flag. */
export const VERSION_COLUMNS = [
  column(
    'projection_version',
    'string',
    false,
    'The projection the numbers were computed under (`public_metrics_vN`). Compare rows across a change of it with care.',
  ),
  column(
    'metric_definition_bundle_version',
    'string',
    false,
    'The bundle of metric definitions in force (`public_metric_definitions_vN`).',
  ),
  column('metric_precision_version', 'string', false, 'How the numbers were rounded (`metric_precision_vN`).'),
  holdingJson(
    ['object'],
    column(
      'metric_definition_versions',
      'json',
      false,
      "Each metric's own definition version: a JSON object from metric name to `name_vN`. `metric_versions` lists every combination seen.",
    ),
  ),
  column(
    'is_partial',
    'boolean',
    false,
    'True when the snapshot was published before its post-processing finished (`data_quality.is_partial`): a usable measurement that may still change in a later analysis.',
  ),
] as const;

const metricColumns = <Key extends string>(keys: readonly Key[], descriptions: Readonly<Record<Key, string>>) =>
  keys.map((key) => column(key, 'float64', descriptions[key]));
const countColumns = <Key extends string>(keys: readonly Key[], descriptions: Readonly<Record<Key, string>>) =>
  keys.map((key) => column(key, 'int64', descriptions[key]));

const WEBSITE_ID = column('website_id', 'string', false, 'The website (`websites.id`).');

/** What a snapshot and a history point hold after their key: metrics, counts, reasons, version tags. */
const SNAPSHOT_VALUE_COLUMNS = [
  ...metricColumns(METRIC_KEYS, METRIC_DESCRIPTIONS),
  ...countColumns(COUNT_KEYS, COUNT_DESCRIPTIONS),
  holdingJson(['object'], column('unavailable_reasons', 'json', false, REASONS_DESCRIPTION)),
  ...VERSION_COLUMNS,
  ...LOAD_COLUMNS,
] as const;

/** The latest published snapshot of each website, partial ones included: one row per website. */
export const analyticsLatestTable = tableSpec({
  name: 'analytics_latest',
  description:
    "The latest published analytics snapshot of each website (spec 2.3), one row per website, rewritten by each sync that reads it. It may be partial, published before its post-processing finished: `is_partial` says so. Removed websites keep their last row: `analytics_current` holds the listed websites' rows.",
  primaryKey: ['website_id'],
  clusterBy: ['website_id'],
  columns: [
    WEBSITE_ID,
    column(
      'analysis_id',
      'string',
      'The analysis the snapshot comes from (`ana_...`); NULL before the first finalized analysis.',
    ),
    column('as_of', 'timestamp', 'The time the analysis measures; NULL before the first finalized analysis.'),
    column(
      'available_at',
      'timestamp',
      'When the service published the analysis; NULL before the first finalized analysis.',
    ),
    ...SNAPSHOT_VALUE_COLUMNS,
  ],
});

/** Immutable history points: one row per website and analysis; a point always has its analysis and times. */
export const analyticsHistoryTable = tableSpec({
  name: 'analytics_history',
  description:
    'Every finalized analysis of each website (spec 2.4), one row per website and analysis, read incrementally; points are immutable.',
  primaryKey: ['website_id', 'analysis_id'],
  partitionBy: 'as_of',
  clusterBy: ['website_id'],
  columns: [
    WEBSITE_ID,
    column('analysis_id', 'string', false, 'The analysis (`ana_...`).'),
    column('as_of', 'timestamp', false, 'The time the analysis measures.'),
    column('available_at', 'timestamp', false, 'When the service published the analysis.'),
    ...SNAPSHOT_VALUE_COLUMNS,
  ],
});

/**
 * Key columns shared by provider and competitor rows. A snapshot's `analysis_id` may be null
 * in the spec; as a key column it is stored as the empty string then (a key is never NULL).
 */
const BREAKDOWN_KEY_COLUMNS = [
  WEBSITE_ID,
  column(
    'analysis_id',
    'string',
    false,
    "The snapshot's analysis (`ana_...`); the empty string when the snapshot had none (a key is never NULL).",
  ),
  column('as_of', 'timestamp', "The snapshot's `as_of`."),
  column('available_at', 'timestamp', "The snapshot's `available_at`."),
] as const;

/** How the breakdown tables keep their rows: the history of analyses that were latest at some sync. */
const BREAKDOWN_HISTORY =
  'Rows of every analysis that was the latest at some sync are kept: a history with gaps that depend on the sync schedule, so aggregate by `analysis_id`';

/** `providers[]` of the latest snapshot: one row per website, analysis and provider. */
export const analyticsProvidersTable = tableSpec({
  name: 'analytics_providers',
  description: `The per-AI-provider breakdown (\`providers[]\`) of the latest snapshot, one row per website, analysis and provider. ${BREAKDOWN_HISTORY}; \`analytics_providers_current\` holds the current analysis only.`,
  primaryKey: ['website_id', 'analysis_id', 'provider'],
  clusterBy: ['website_id'],
  columns: [
    ...BREAKDOWN_KEY_COLUMNS,
    column('provider', 'string', false, 'The AI provider (`chatgpt`, `gemini`, ...).'),
    ...metricColumns(METRIC_KEYS, METRIC_DESCRIPTIONS),
    ...countColumns(PROVIDER_COUNT_KEYS, COUNT_DESCRIPTIONS),
    holdingJson(['object'], column('unavailable_reasons', 'json', false, REASONS_DESCRIPTION)),
    ...VERSION_COLUMNS,
    ...LOAD_COLUMNS,
  ],
});

/** `competitors[]` of the latest snapshot: one row per website, analysis and competitor. */
export const analyticsCompetitorsTable = tableSpec({
  name: 'analytics_competitors',
  description: `The competitor breakdown (\`competitors[]\`) of the latest snapshot, one row per website, analysis and competitor. ${BREAKDOWN_HISTORY}; \`analytics_competitors_current\` holds the current analysis only.`,
  primaryKey: ['website_id', 'analysis_id', 'competitor_domain'],
  clusterBy: ['website_id'],
  columns: [
    ...BREAKDOWN_KEY_COLUMNS,
    column('competitor_domain', 'string', false, "The competitor's domain."),
    ...metricColumns(COMPETITOR_METRIC_KEYS, COMPETITOR_METRIC_DESCRIPTIONS),
    ...countColumns(COMPETITOR_COUNT_KEYS, COMPETITOR_COUNT_DESCRIPTIONS),
    holdingJson(['object'], column('unavailable_reasons', 'json', false, COMPETITOR_REASONS_DESCRIPTION)),
    ...VERSION_COLUMNS,
    ...LOAD_COLUMNS,
  ],
});
