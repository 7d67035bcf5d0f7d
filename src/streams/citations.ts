import { STREAM_OPTIONS } from '../../schemas/streams-config.ts';
import { citationSchema, timestampSchema } from '../../schemas/index.ts';
import { citationsTable } from '../tables/index.ts';
import { citationKey } from './citation-key.ts';
import { perAnalysisScans } from './citation-scans.ts';
import { FEED_KEY_FIELDS } from './record-mapping.ts';
import { feedStream, loadColumns, UNFILTERED_SCAN } from './stream.ts';

/** A text column: the field when it is a string, else NULL (the value stays in `_raw`). */
const text = (value: unknown) => (typeof value === 'string' ? value : null);
/** A timestamp column: the field when it is a UTC timestamp the spec's forms allow, else NULL. */
const timestamp = (value: unknown) => (timestampSchema.safeParse(value).success ? (value as string) : null);

/**
 * Citation evidence per website. The spec shows no citation fields, so every JSON object is
 * stored: typed columns where a field is present and well-formed (a malformed `observed_at`
 * leaves the column NULL, never the record out), no pattern checks on fields the spec never
 * defined (any provider spelling is kept), and a key that needs no `id` (`citation-key.ts`).
 * A server that wants `analysis_id` is read one scan per analysis (`citation-scans.ts`).
 */
export const citationsStream = feedStream({
  kind: 'feed',
  name: 'citations',
  options: STREAM_OPTIONS.citations,
  table: citationsTable,
  recordSchema: citationSchema,
  path: (websiteId) => `/public/v2/websites/${encodeURIComponent(websiteId)}/citations`,
  scans: () => [...UNFILTERED_SCAN],
  fallback: perAnalysisScans,
  mappings: [{ table: citationsTable, rawPath: [], mapped: ['id', ...FEED_KEY_FIELDS], keyed: {} }],
  // A citation without a usable `available_at` lies in no window (verify counts it `unstamped`).
  windowColumn: 'available_at',
  toRow(citation, raw, context) {
    return {
      id: citationKey(raw as Record<string, unknown>, context.websiteId),
      website_id: context.websiteId,
      analysis_id: text(citation.analysis_id),
      provider: text(citation.provider),
      observed_at: timestamp(citation.observed_at),
      available_at: timestamp(citation.available_at),
      ...loadColumns(citationsTable, raw, context),
    };
  },
});
