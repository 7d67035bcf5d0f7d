import {
  COMPETITOR_COUNT_KEYS,
  COMPETITOR_METRIC_KEYS,
  COUNT_KEYS,
  METRIC_KEYS,
  PROVIDER_COUNT_KEYS,
} from '../../schemas/keys.ts';
import { column, type ColumnSpec, type TableSpec } from '../destination/table-spec.ts';
import { LOAD_COLUMNS } from './common-columns.ts';

/** The version tags every analytics row carries (spec 2.3, 9.4), plus the partial flag. */
const VERSION_COLUMNS: readonly ColumnSpec[] = [
  column('projection_version', 'string', false),
  column('metric_definition_bundle_version', 'string', false),
  column('metric_precision_version', 'string', false),
  column('metric_definition_versions', 'json', false),
  column('is_partial', 'boolean', false),
];

const SNAPSHOT_COLUMNS: readonly ColumnSpec[] = [
  column('website_id', 'string', false),
  column('analysis_id', 'string'),
  column('as_of', 'timestamp'),
  column('available_at', 'timestamp'),
];

const metricColumns = (keys: readonly string[]) => keys.map((key) => column(key, 'float64'));
const countColumns = (keys: readonly string[]) => keys.map((key) => column(key, 'int64'));

/** The latest finalized snapshot of each website: one row per website. */
export const analyticsLatestTable: TableSpec = {
  name: 'analytics_latest',
  primaryKey: ['website_id'],
  clusterBy: ['website_id'],
  columns: [
    ...SNAPSHOT_COLUMNS,
    ...metricColumns(METRIC_KEYS),
    ...countColumns(COUNT_KEYS),
    column('unavailable_reasons', 'json', false),
    ...VERSION_COLUMNS,
    ...LOAD_COLUMNS,
  ],
};

/** Immutable history points: one row per website and analysis. */
export const analyticsHistoryTable: TableSpec = {
  name: 'analytics_history',
  primaryKey: ['website_id', 'analysis_id'],
  partitionBy: 'as_of',
  clusterBy: ['website_id'],
  columns: analyticsLatestTable.columns.map((c) =>
    c.name === 'analysis_id' || c.name === 'as_of' || c.name === 'available_at' ? { ...c, nullable: false } : c,
  ),
};

/**
 * Key columns shared by provider and competitor rows. A snapshot's `analysis_id` may be null
 * in the spec; as a key column it is stored as the empty string then (a key is never NULL).
 */
const BREAKDOWN_KEY_COLUMNS: readonly ColumnSpec[] = [
  column('website_id', 'string', false),
  column('analysis_id', 'string', false),
  column('as_of', 'timestamp'),
  column('available_at', 'timestamp'),
];

/** `providers[]` of the latest snapshot: one row per website, analysis and provider. */
export const analyticsProvidersTable: TableSpec = {
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
};

/** `competitors[]` of the latest snapshot: one row per website, analysis and competitor. */
export const analyticsCompetitorsTable: TableSpec = {
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
};
