import { z } from 'zod';
import { analysisIdSchema, citationSchema, timestampSchema } from '../../schemas/index.ts';
import type { Row } from '../destination/table-spec.ts';
import { citationsTable } from '../tables/index.ts';
import { loadColumns, UNFILTERED_SCAN, type FeedStream, type RowContext } from './stream.ts';

/**
 * The spec shows no citation fields, so only `id` is required. The few fields that become
 * typed columns are checked when present: a malformed `observed_at` must be rejected here,
 * not fail a whole load at the warehouse.
 */
const citationRecordSchema = citationSchema.and(
  z.looseObject({
    analysis_id: analysisIdSchema.nullish(),
    provider: z.string().min(1).max(128).nullish(),
    observed_at: timestampSchema.nullish(),
    available_at: timestampSchema.nullish(),
  }),
);
type CitationRecord = z.infer<typeof citationRecordSchema>;

export const citationsStream: FeedStream<CitationRecord> = {
  name: 'citations',
  table: citationsTable,
  recordSchema: citationRecordSchema,
  path: (websiteId) => `/public/v2/websites/${encodeURIComponent(websiteId)}/citations`,
  scans: () => [...UNFILTERED_SCAN],
  toRow(citation: CitationRecord, raw: unknown, context: RowContext): Row {
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
