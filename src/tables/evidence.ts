import { column, holdingJson, tableSpec } from '../destination/table-spec.ts';
import { LOAD_COLUMNS } from './common-columns.ts';

/** Brand-mention evidence (spec 2.5); `website_id` comes from the request path. */
export const mentionsTable = tableSpec({
  name: 'mentions',
  description:
    'Brand-mention evidence (spec 2.5): one row per sentence of an AI response that mentions the brand, read incrementally per website.',
  primaryKey: ['id'],
  partitionBy: 'observed_at',
  clusterBy: ['website_id', 'analysis_id'],
  columns: [
    column('id', 'string', false, 'The mention id (`men_...`).'),
    column('website_id', 'string', false, 'The website (`websites.id`).'),
    column('analysis_id', 'string', false, 'The analysis that observed the mention (`ana_...`).'),
    column('observed_at', 'timestamp', false, 'When the AI response was observed.'),
    column('available_at', 'timestamp', false, 'When the service published the mention.'),
    column('provider', 'string', false, 'The AI provider that gave the response (`chatgpt`, `gemini`, ...).'),
    column('sentence_text', 'string', false, 'The sentence that mentions the brand.'),
    column('sentence_text_truncated', 'boolean', false, 'True when the service cut `sentence_text` short.'),
    column(
      'position_in_response',
      'int64',
      'Where in the response the mention comes, >= 1 (1 is first); NULL when not measured.',
    ),
    column('sentiment', 'float64', 'Sentiment of the sentence, 0 to 100; NULL when not scored.'),
    holdingJson(
      ['array'],
      column(
        'mention_spans',
        'json',
        false,
        'Where the brand appears in `sentence_text`: a JSON array of `{"start", "end"}` character offsets.',
      ),
    ),
    ...LOAD_COLUMNS,
  ],
});

/**
 * Citation evidence: the spec does not show its fields. `id` is the record's own or a hash
 * (`src/streams/citation-key.ts`); the other columns are NULL where the field is absent or
 * malformed.
 */
export const citationsTable = tableSpec({
  name: 'citations',
  description:
    'Citation evidence (spec 2.6, whose fields the spec does not show): one row per citation, read incrementally per website; the record whole is in `_raw`.',
  primaryKey: ['id'],
  partitionBy: 'observed_at',
  clusterBy: ['website_id', 'analysis_id'],
  columns: [
    column('id', 'string', false, "The citation's id, or a hash of the record when it has none."),
    column('website_id', 'string', false, 'The website (`websites.id`).'),
    column('analysis_id', 'string', 'The analysis (`ana_...`); NULL when the record has none.'),
    column('provider', 'string', 'The AI provider; NULL when the record has none.'),
    column('observed_at', 'timestamp', 'When the response was observed; NULL when the record has none.'),
    column('available_at', 'timestamp', 'When the service published the citation; NULL when the record has none.'),
    ...LOAD_COLUMNS,
  ],
});
