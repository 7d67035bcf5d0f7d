import { STREAM_OPTIONS } from '../../schemas/streams-config.ts';
import { mentionSchema } from '../../schemas/index.ts';
import { mentionsTable } from '../tables/index.ts';
import { FEED_KEY_FIELDS } from './record-mapping.ts';
import { feedStream, jsonText, loadColumns, UNFILTERED_SCAN } from './stream.ts';

/**
 * Brand-mention evidence per website. The API filters by one provider at a time, so a
 * config listing providers runs one scan per provider, each with its own frontier (scope
 * `<website_id>?provider=<name>`): a frontier shared by scans that ended at different
 * bounds would skip rows.
 */
export const mentionsStream = feedStream({
  kind: 'feed',
  name: 'mentions',
  options: STREAM_OPTIONS.mentions,
  table: mentionsTable,
  recordSchema: mentionSchema,
  path: (websiteId) => `/public/v2/websites/${encodeURIComponent(websiteId)}/mentions`,
  scans({ providers }) {
    if (!providers) return [...UNFILTERED_SCAN];
    return providers.map((provider) => ({ scopeSuffix: `?provider=${provider}`, query: { provider } }));
  },
  mappings: [
    {
      table: mentionsTable,
      rawPath: [],
      mapped: [
        'id',
        ...FEED_KEY_FIELDS,
        'sentence_text',
        'sentence_text_truncated',
        'position_in_response',
        'sentiment',
        'mention_spans',
      ],
      keyed: {},
    },
  ],
  windowColumn: 'available_at',
  toRow(mention, raw, context) {
    return {
      id: mention.id,
      website_id: context.websiteId,
      analysis_id: mention.analysis_id,
      observed_at: mention.observed_at,
      available_at: mention.available_at,
      provider: mention.provider,
      sentence_text: mention.sentence_text,
      sentence_text_truncated: mention.sentence_text_truncated,
      position_in_response: mention.position_in_response,
      sentiment: mention.sentiment,
      mention_spans: jsonText(mention.mention_spans),
      ...loadColumns(mentionsTable, raw, context),
    };
  },
});
