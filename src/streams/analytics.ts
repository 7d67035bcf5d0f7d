/**
 * The latest published snapshot of a website (possibly partial: `is_partial`), with its
 * provider and competitor breakdowns (docs/architecture.md#tables). One GET per website; a 404 means "tracked, not yet measured":
 * no rows.
 */
import {
  COMPETITOR_COUNT_KEYS,
  COMPETITOR_METRIC_KEYS,
  COUNT_KEYS,
  METRIC_KEYS,
  PROVIDER_COUNT_KEYS,
} from '../../schemas/keys.ts';
import { STREAM_OPTIONS } from '../../schemas/streams-config.ts';
import { snapshotDataSchema, snapshotMetaSchema } from '../../schemas/index.ts';
import { analyticsCompetitorsTable, analyticsLatestTable, analyticsProvidersTable } from '../tables/index.ts';
import { pickColumns, versionColumns } from './analytics-columns.ts';
import { SNAPSHOT_FIELDS } from './record-mapping.ts';
import { jsonText, loadColumns, requireSameWebsite, snapshotStream, tableRows } from './stream.ts';

export const analyticsStream = snapshotStream({
  kind: 'snapshot',
  name: 'analytics',
  options: STREAM_OPTIONS.analytics,
  tables: [analyticsLatestTable, analyticsProvidersTable, analyticsCompetitorsTable],
  dataSchema: snapshotDataSchema,
  metaSchema: snapshotMetaSchema,
  path: (websiteId) => `/public/v2/websites/${encodeURIComponent(websiteId)}/analytics`,
  query: ({ include }) => ({ include: include.length > 0 ? include.join(',') : undefined }),
  mappings: [
    {
      table: analyticsLatestTable,
      rawPath: ['data'],
      mapped: [...SNAPSHOT_FIELDS, 'providers', 'competitors'],
      keyed: { metrics: METRIC_KEYS, counts: COUNT_KEYS },
      versioned: 'metrics',
    },
    {
      table: analyticsProvidersTable,
      items: 'providers',
      rawPath: [],
      mapped: ['provider', 'metrics', 'counts', 'unavailable_reasons'],
      keyed: { metrics: METRIC_KEYS, counts: PROVIDER_COUNT_KEYS },
      versioned: 'metrics',
    },
    {
      table: analyticsCompetitorsTable,
      items: 'competitors',
      rawPath: [],
      mapped: ['competitor_domain', 'metrics', 'counts', 'unavailable_reasons'],
      keyed: { metrics: COMPETITOR_METRIC_KEYS, counts: COMPETITOR_COUNT_KEYS },
      versioned: 'metrics',
    },
  ],

  toRows(data, meta, raw, context) {
    requireSameWebsite(data.website_id, context);
    const snapshot = {
      website_id: data.website_id,
      as_of: data.as_of,
      available_at: data.available_at,
      ...versionColumns(meta),
    };
    // A breakdown row's key never holds NULL: a snapshot without an analysis id keys them by ''.
    const breakdownKey = { ...snapshot, analysis_id: data.analysis_id ?? '' };
    // The raw body as parsed, kept verbatim; only its two arrays are read.
    const rawData = raw.data as { providers?: unknown[]; competitors?: unknown[] } | undefined;
    const rawProviders = rawData?.providers ?? [];
    const rawCompetitors = rawData?.competitors ?? [];
    return [
      tableRows(analyticsLatestTable, [
        {
          ...snapshot,
          analysis_id: data.analysis_id,
          ...pickColumns(data.metrics, METRIC_KEYS),
          ...pickColumns(data.counts, COUNT_KEYS),
          unavailable_reasons: jsonText(meta.unavailable_reasons),
          // The whole body: the version tags live in `meta`, not in `data`.
          ...loadColumns(analyticsLatestTable, raw, context),
        },
      ]),
      tableRows(
        analyticsProvidersTable,
        (data.providers ?? []).map((entry, i) => ({
          ...breakdownKey,
          provider: entry.provider,
          ...pickColumns(entry.metrics, METRIC_KEYS),
          ...pickColumns(entry.counts, PROVIDER_COUNT_KEYS),
          unavailable_reasons: jsonText(entry.unavailable_reasons),
          ...loadColumns(analyticsProvidersTable, rawProviders[i], context),
        })),
      ),
      tableRows(
        analyticsCompetitorsTable,
        (data.competitors ?? []).map((entry, i) => ({
          ...breakdownKey,
          competitor_domain: entry.competitor_domain,
          ...pickColumns(entry.metrics, COMPETITOR_METRIC_KEYS),
          ...pickColumns(entry.counts, COMPETITOR_COUNT_KEYS),
          unavailable_reasons: jsonText(entry.unavailable_reasons),
          ...loadColumns(analyticsCompetitorsTable, rawCompetitors[i], context),
        })),
      ),
    ];
  },
});
