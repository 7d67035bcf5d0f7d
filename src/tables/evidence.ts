import { column, tableSpec } from '../destination/table-spec.ts';
import { LOAD_COLUMNS } from './common-columns.ts';

/** Brand-mention evidence (spec 2.5); `website_id` comes from the request path. */
export const mentionsTable = tableSpec({
  name: 'mentions',
  primaryKey: ['id'],
  partitionBy: 'observed_at',
  clusterBy: ['website_id', 'analysis_id'],
  columns: [
    column('id', 'string', false),
    column('website_id', 'string', false),
    column('analysis_id', 'string', false),
    column('observed_at', 'timestamp', false),
    column('available_at', 'timestamp', false),
    column('provider', 'string', false),
    column('sentence_text', 'string', false),
    column('sentence_text_truncated', 'boolean', false),
    column('position_in_response', 'int64'),
    column('sentiment', 'float64'),
    column('mention_spans', 'json', false),
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
  primaryKey: ['id'],
  partitionBy: 'observed_at',
  clusterBy: ['website_id', 'analysis_id'],
  columns: [
    column('id', 'string', false),
    column('website_id', 'string', false),
    column('analysis_id', 'string'),
    column('provider', 'string'),
    column('observed_at', 'timestamp'),
    column('available_at', 'timestamp'),
    ...LOAD_COLUMNS,
  ],
});
