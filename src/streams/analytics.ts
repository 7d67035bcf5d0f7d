/**
 * The latest finalized snapshot of a website, with its provider and competitor breakdowns
 * (design §3). One GET per website; a 404 means "tracked, not yet measured": no rows.
 */
import {
  COMPETITOR_COUNT_KEYS,
  COMPETITOR_METRIC_KEYS,
  COUNT_KEYS,
  METRIC_KEYS,
  PROVIDER_COUNT_KEYS,
} from '../../schemas/keys.ts';
import { snapshotDataSchema, snapshotMetaSchema, type SnapshotData, type SnapshotMeta } from '../../schemas/index.ts';
import type { TableRows } from '../destination/destination.ts';
import { analyticsCompetitorsTable, analyticsLatestTable, analyticsProvidersTable } from '../tables/index.ts';
import { pickColumns, versionColumns } from './analytics-columns.ts';
import { jsonText, loadColumns, requireSameWebsite, type RowContext } from './stream.ts';

export const analyticsStream = {
  name: 'analytics',
  tables: [analyticsLatestTable, analyticsProvidersTable, analyticsCompetitorsTable],
  dataSchema: snapshotDataSchema,
  metaSchema: snapshotMetaSchema,
  path: (websiteId: string) => `/public/v2/websites/${encodeURIComponent(websiteId)}/analytics`,

  // biome-ignore lint/suspicious/noExplicitAny: the raw body as parsed, kept verbatim; only its two arrays are read
  toRows(data: SnapshotData, meta: SnapshotMeta, raw: { data: any }, context: RowContext): TableRows[] {
    requireSameWebsite(data.website_id, context);
    const snapshot = {
      website_id: data.website_id,
      as_of: data.as_of,
      available_at: data.available_at,
      ...versionColumns(meta),
    };
    // A breakdown row's key never holds NULL: a snapshot without an analysis id keys them by ''.
    const breakdownKey = { ...snapshot, analysis_id: data.analysis_id ?? '' };
    const rawProviders: unknown[] = raw.data?.providers ?? [];
    const rawCompetitors: unknown[] = raw.data?.competitors ?? [];
    return [
      {
        table: analyticsLatestTable,
        rows: [
          {
            ...snapshot,
            analysis_id: data.analysis_id,
            ...pickColumns(data.metrics, METRIC_KEYS),
            ...pickColumns(data.counts, COUNT_KEYS),
            unavailable_reasons: jsonText(meta.unavailable_reasons),
            // The whole body: the version tags live in `meta`, not in `data`.
            ...loadColumns(raw, context),
          },
        ],
      },
      {
        table: analyticsProvidersTable,
        rows: (data.providers ?? []).map((entry, i) => ({
          ...breakdownKey,
          provider: entry.provider,
          ...pickColumns(entry.metrics, METRIC_KEYS),
          ...pickColumns(entry.counts, PROVIDER_COUNT_KEYS),
          unavailable_reasons: jsonText(entry.unavailable_reasons),
          ...loadColumns(rawProviders[i], context),
        })),
      },
      {
        table: analyticsCompetitorsTable,
        rows: (data.competitors ?? []).map((entry, i) => ({
          ...breakdownKey,
          competitor_domain: entry.competitor_domain,
          ...pickColumns(entry.metrics, COMPETITOR_METRIC_KEYS),
          ...pickColumns(entry.counts, COMPETITOR_COUNT_KEYS),
          unavailable_reasons: jsonText(entry.unavailable_reasons),
          ...loadColumns(rawCompetitors[i], context),
        })),
      },
    ];
  },
} as const;
