import {
  COMPETITOR_COUNT_KEYS,
  COMPETITOR_METRIC_KEYS,
  COUNT_KEYS,
  METRIC_KEYS,
  PROVIDER_COUNT_KEYS,
} from '../../schemas/keys.ts';
import { column, tableSpec } from '../destination/table-spec.ts';
import { LOAD_COLUMNS } from './common-columns.ts';

/** The version tags every analytics row carries (spec 2.3, 9.4), plus the partial flag. */
export const VERSION_COLUMNS = [
  column('projection_version', 'string', false),
  column('metric_definition_bundle_version', 'string', false),
  column('metric_precision_version', 'string', false),
  column('metric_definition_versions', 'json', false),
  column('is_partial', 'boolean', false),
] as const;

const metricColumns = <Key extends string>(keys: readonly Key[]) => keys.map((key) => column(key, 'float64'));
const countColumns = <Key extends string>(keys: readonly Key[]) => keys.map((key) => column(key, 'int64'));

/** What a snapshot and a history point hold after their key: metrics, counts, reasons, version tags. */
const SNAPSHOT_VALUE_COLUMNS = [
  ...metricColumns(METRIC_KEYS),
  ...countColumns(COUNT_KEYS),
  column('unavailable_reasons', 'json', false),
  ...VERSION_COLUMNS,
  ...LOAD_COLUMNS,
] as const;

/** The latest finalized snapshot of each website: one row per website. */
export const analyticsLatestTable = tableSpec({
  name: 'analytics_latest',
  primaryKey: ['website_id'],
  clusterBy: ['website_id'],
  columns: [
    column('website_id', 'string', false),
    column('analysis_id', 'string'),
    column('as_of', 'timestamp'),
    column('available_at', 'timestamp'),
    ...SNAPSHOT_VALUE_COLUMNS,
  ],
});

/** Immutable history points: one row per website and analysis; a point always has its analysis and times. */
export const analyticsHistoryTable = tableSpec({
  name: 'analytics_history',
  primaryKey: ['website_id', 'analysis_id'],
  partitionBy: 'as_of',
  clusterBy: ['website_id'],
  columns: [
    column('website_id', 'string', false),
    column('analysis_id', 'string', false),
    column('as_of', 'timestamp', false),
    column('available_at', 'timestamp', false),
    ...SNAPSHOT_VALUE_COLUMNS,
  ],
});

/**
 * Key columns shared by provider and competitor rows. A snapshot's `analysis_id` may be null
 * in the spec; as a key column it is stored as the empty string then (a key is never NULL).
 */
const BREAKDOWN_KEY_COLUMNS = [
  column('website_id', 'string', false),
  column('analysis_id', 'string', false),
  column('as_of', 'timestamp'),
  column('available_at', 'timestamp'),
] as const;

/** `providers[]` of the latest snapshot: one row per website, analysis and provider. */
export const analyticsProvidersTable = tableSpec({
  name: 'analytics_providers',
  primaryKey: ['website_id', 'analysis_id', 'provider'],
  clusterBy: ['website_id'],
  columns: [
    ...BREAKDOWN_KEY_COLUMNS,
    column('provider', 'string', false),
    ...metricColumns(METRIC_KEYS),
    ...countColumns(PROVIDER_COUNT_KEYS),
    column('unavailable_reasons', 'json', false),
    ...VERSION_COLUMNS,
    ...LOAD_COLUMNS,
  ],
});

/** `competitors[]` of the latest snapshot: one row per website, analysis and competitor. */
export const analyticsCompetitorsTable = tableSpec({
  name: 'analytics_competitors',
  primaryKey: ['website_id', 'analysis_id', 'competitor_domain'],
  clusterBy: ['website_id'],
  columns: [
    ...BREAKDOWN_KEY_COLUMNS,
    column('competitor_domain', 'string', false),
    ...metricColumns(COMPETITOR_METRIC_KEYS),
    ...countColumns(COMPETITOR_COUNT_KEYS),
    column('unavailable_reasons', 'json', false),
    ...VERSION_COLUMNS,
    ...LOAD_COLUMNS,
  ],
});
