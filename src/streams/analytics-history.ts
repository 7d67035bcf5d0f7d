import { STREAM_OPTIONS } from '../../schemas/streams-config.ts';
import { COUNT_KEYS, METRIC_KEYS } from '../../schemas/keys.ts';
import { historyPointSchema } from '../../schemas/index.ts';
import { analyticsHistoryTable } from '../tables/index.ts';
import { pickColumns, versionColumns } from './analytics-columns.ts';
import { SNAPSHOT_FIELDS } from './record-mapping.ts';
import { feedStream, jsonText, loadColumns, requireSameWebsite, UNFILTERED_SCAN } from './stream.ts';

/** Finalized, immutable history points, read incrementally per website. */
export const analyticsHistoryStream = feedStream({
  kind: 'feed',
  name: 'analytics_history',
  options: STREAM_OPTIONS.analytics_history,
  table: analyticsHistoryTable,
  recordSchema: historyPointSchema,
  path: (websiteId) => `/public/v2/websites/${encodeURIComponent(websiteId)}/analytics/history`,
  scans: () => [...UNFILTERED_SCAN],
  mappings: [
    {
      table: analyticsHistoryTable,
      rawPath: [],
      mapped: [...SNAPSHOT_FIELDS, 'meta'],
      keyed: { metrics: METRIC_KEYS, counts: COUNT_KEYS },
      versioned: 'metrics',
    },
  ],
  windowColumn: 'available_at',
  toRow(point, raw, context) {
    requireSameWebsite(point.website_id, context);
    return {
      website_id: point.website_id,
      analysis_id: point.analysis_id,
      as_of: point.as_of,
      available_at: point.available_at,
      ...pickColumns(point.metrics, METRIC_KEYS),
      ...pickColumns(point.counts, COUNT_KEYS),
      unavailable_reasons: jsonText(point.meta.unavailable_reasons),
      ...versionColumns(point.meta),
      ...loadColumns(analyticsHistoryTable, raw, context),
    };
  },
});
