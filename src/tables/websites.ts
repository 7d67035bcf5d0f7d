import { column, tableSpec } from '../destination/table-spec.ts';
import { LOAD_COLUMNS } from './common-columns.ts';

/**
 * One row per website the workspace has ever listed. `_first_seen_at` is written once;
 * `_removed_at` is NULL while listed, set when a complete listing no longer has the website,
 * and cleared (by the next upsert) when it comes back.
 */
export const websitesTable = tableSpec({
  name: 'websites',
  description:
    'One row per website any sync has listed (spec 2.2), removed ones included: `_removed_at` says which are gone. `websites_current` holds the listed ones.',
  primaryKey: ['id'],
  insertOnly: ['_first_seen_at'],
  clusterBy: ['id'],
  columns: [
    column('id', 'string', false, 'The website id (`web_...`, opaque).'),
    column('domain_url', 'string', false, "The website's address (a URI)."),
    column('country', 'string', false, 'The country the website is analysed for: two upper-case letters (ISO 3166-1).'),
    column('language', 'string', 'The language the website is analysed in; NULL when the service has none.'),
    column(
      'industry_niche',
      'string',
      'The industry niche the service files the website under; NULL when it has none.',
    ),
    column('last_analysis_at', 'timestamp', 'When the last analysis of the website ran; NULL until the first one.'),
    column('_first_seen_at', 'timestamp', false, 'When a sync first listed the website; never changed afterwards.'),
    column(
      '_removed_at',
      'timestamp',
      "When a sync first read a complete listing that lacked the website (the sync's clock: when aivis noticed, not when the website was removed): NULL while it is listed, and cleared again if it comes back.",
    ),
    ...LOAD_COLUMNS,
  ],
});
