import { citationSchema, type Citation } from '../../schemas/index.ts';
import type { Row } from '../destination/table-spec.ts';
import { citationsTable } from '../tables/index.ts';
import { loadColumns, UNFILTERED_SCAN, type FeedStream, type RowContext } from './stream.ts';

/**
 * The spec shows no citation fields, so only `id` is required; the fields that become typed
 * columns are checked by `citationSchema` when present (a malformed `observed_at` is rejected
 * here, not at the warehouse).
 */
export const citationsStream: FeedStream<Citation> = {
  name: 'citations',
  table: citationsTable,
  recordSchema: citationSchema,
  path: (websiteId) => `/public/v2/websites/${encodeURIComponent(websiteId)}/citations`,
  scans: () => [...UNFILTERED_SCAN],
  toRow(citation: Citation, raw: unknown, context: RowContext): Row {
    return {
      id: citation.id,
      website_id: context.websiteId,
      analysis_id: citation.analysis_id ?? null,
      provider: citation.provider ?? null,
      observed_at: citation.observed_at ?? null,
      available_at: citation.available_at ?? null,
      ...loadColumns(raw, context),
    };
  },
};
