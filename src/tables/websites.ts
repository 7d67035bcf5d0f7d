import { column, tableSpec } from '../destination/table-spec.ts';
import { LOAD_COLUMNS } from './common-columns.ts';

/**
 * One row per website the workspace has ever listed. `_first_seen_at` is written once;
 * `_removed_at` is NULL while listed, set when a complete listing no longer has the website,
 * and cleared (by the next upsert) when it comes back.
 */
export const websitesTable = tableSpec({
  name: 'websites',
  primaryKey: ['id'],
  insertOnly: ['_first_seen_at'],
  clusterBy: ['id'],
  columns: [
    column('id', 'string', false),
    column('domain_url', 'string', false),
    column('country', 'string', false),
    column('language', 'string'),
    column('industry_niche', 'string'),
    column('last_analysis_at', 'timestamp'),
    column('_first_seen_at', 'timestamp', false),
    column('_removed_at', 'timestamp'),
    ...LOAD_COLUMNS,
  ],
});
