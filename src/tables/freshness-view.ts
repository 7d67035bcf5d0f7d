/**
 * `freshness_current`'s columns and query (docs/tables.md#freshness_current): per workspace and
 * stream, what `aivis status` counts (src/trust/read-status.ts) over every current website
 * (`websites_current`; the view knows no config, so no `websites.include`).
 *
 * A stream's scopes are its workspace's listing (`*`, `*:<workspace>`) and each current website,
 * alone or with a scan filter (`web_1?provider=gemini`). A website is complete for a stream
 * when a scope of it has a `complete_through` or `_aivis_coverage` a row; `complete_through` is
 * the oldest over the listing's and those websites' scopes, NULL while a current website is not
 * complete. `websites` is complete once its listing is.
 */
import { column, type ColumnSpec } from '../destination/table-spec.ts';
import type { ViewDialect } from '../destination/view-spec.ts';
import { DEFAULT_WORKSPACE, WORKSPACE_COLUMN } from '../destination/workspace.ts';
import { completenessTable, coverageTable } from '../destination/engine-tables.ts';
import { websitesTable } from './websites.ts';

export const freshnessColumns = (workspace: ColumnSpec): ColumnSpec[] => [
  workspace,
  column('stream', 'string', false, 'The stream.'),
  column('websites', 'int64', false, 'The current websites of the workspace (`websites_current`).'),
  column(
    'websites_complete',
    'int64',
    false,
    'Those the stream is complete for: read whole or to a committed frontier (for `websites`: all of them once the listing is).',
  ),
  column(
    'complete_through',
    'timestamp',
    'Everything the API published before it is loaded for every current website: the oldest `_aivis_completeness.complete_through` over the listing and those websites; NULL while one of them was never completed.',
  ),
  column(
    'checked_through',
    'timestamp',
    "The oldest over the current websites of the later of `_aivis_coverage.read_started_at` and `checked_at`: how far a `skip_unchanged` sync vouches for the stream before `sweep_every`'s bound, which the view cannot know (docs/operations.md#coverage); `complete_through` for `websites`; NULL while a current website has no coverage.",
  ),
];

/** The query: one row per workspace and stream of `_aivis_completeness` or `_aivis_coverage`. */
export function freshnessQuery(d: ViewDialect): string {
  const c = (name: string) => d.column(name);
  const ws = (alias: string) => `COALESCE(${alias}.${c(WORKSPACE_COLUMN.name)}, '${DEFAULT_WORKSPACE}')`;
  const listing = `CASE WHEN f.ws = '${DEFAULT_WORKSPACE}' THEN '*' ELSE CONCAT('*:', f.ws) END`;
  const websites = d.literal(websitesTable.name);
  const count = (condition: string) => `SUM(CASE WHEN ${condition} THEN 1 ELSE 0 END)`;
  // Subqueries, not WITH: a view's query begins with SELECT on every destination.
  const currentWebsites = `(SELECT ${ws('w')} AS ws, w.${c('id')} AS website_id FROM ${d.table(websitesTable.name)} AS w WHERE w.${c('_removed_at')} IS NULL)`;
  const frontiers = `(SELECT ${ws('f')} AS ws, f.${c('stream')} AS stream, f.${c('scope')} AS scope, f.${c('complete_through')} AS complete_through FROM ${d.table(completenessTable.name)} AS f)`;
  const coverage = d.table(coverageTable.name);
  const streams = `(SELECT DISTINCT u.ws, u.stream FROM (
    SELECT f.ws, f.stream FROM ${frontiers} AS f
    UNION ALL
    SELECT v.${c(WORKSPACE_COLUMN.name)} AS ws, v.${c('stream')} AS stream FROM ${coverage} AS v
  ) AS u)`;
  const perWebsite = `(SELECT s.ws, s.stream, cw.website_id,
    COUNT(f.scope) AS frontiers,
    COUNT(v.${c('website_id')}) AS covered,
    MIN(GREATEST(v.${c('read_started_at')}, COALESCE(v.${c('checked_at')}, v.${c('read_started_at')}))) AS checked_through
  FROM ${streams} AS s
  JOIN ${currentWebsites} AS cw ON cw.ws = s.ws
  LEFT JOIN ${frontiers} AS f ON f.ws = s.ws AND f.stream = s.stream AND ${d.firstPart('f.scope', '?')} = cw.website_id
  LEFT JOIN ${coverage} AS v ON v.${c(WORKSPACE_COLUMN.name)} = s.ws AND v.${c('stream')} = s.stream AND v.${c('website_id')} = cw.website_id
  GROUP BY s.ws, s.stream, cw.website_id)`;
  const perStream = `(SELECT pw.ws, pw.stream, ${count('pw.frontiers > 0 OR pw.covered > 0')} AS complete, ${count('pw.covered > 0')} AS covered, MIN(pw.checked_through) AS checked_through
  FROM ${perWebsite} AS pw
  GROUP BY pw.ws, pw.stream)`;
  const oldest = `(SELECT f.ws, f.stream, MIN(f.complete_through) AS complete_through, ${count(`f.scope = ${listing}`)} AS listings
  FROM ${frontiers} AS f
  LEFT JOIN ${currentWebsites} AS cw ON cw.ws = f.ws AND cw.website_id = ${d.firstPart('f.scope', '?')}
  WHERE f.scope = ${listing} OR cw.website_id IS NOT NULL
  GROUP BY f.ws, f.stream)`;
  return `SELECT
  s.ws AS ${c(WORKSPACE_COLUMN.name)},
  s.stream AS ${c('stream')},
  ${d.cast('COALESCE(n.websites, 0)', 'int64')} AS ${c('websites')},
  ${d.cast(`CASE WHEN s.stream = ${websites} THEN CASE WHEN COALESCE(o.listings, 0) > 0 THEN COALESCE(n.websites, 0) ELSE 0 END ELSE COALESCE(p.complete, 0) END`, 'int64')} AS ${c('websites_complete')},
  CASE WHEN s.stream <> ${websites} AND COALESCE(p.complete, 0) < COALESCE(n.websites, 0) THEN NULL ELSE o.complete_through END AS ${c('complete_through')},
  CASE WHEN s.stream = ${websites} THEN o.complete_through WHEN COALESCE(p.covered, 0) < COALESCE(n.websites, 0) THEN NULL ELSE p.checked_through END AS ${c('checked_through')}
FROM ${streams} AS s
LEFT JOIN (SELECT cw.ws, COUNT(*) AS websites FROM ${currentWebsites} AS cw GROUP BY cw.ws) AS n ON n.ws = s.ws
LEFT JOIN ${perStream} AS p ON p.ws = s.ws AND p.stream = s.stream
LEFT JOIN ${oldest} AS o ON o.ws = s.ws AND o.stream = s.stream`;
}
