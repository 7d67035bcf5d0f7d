/**
 * The views for analysts (docs/architecture.md#tables): the websites of the last complete
 * listing, the snapshot rows of those websites' current analysis, their evidence and history,
 * each with the website's `domain_url`, and each stream's freshness. Every view shows
 * `_workspace` (NULL read as `default`) and joins on it, so a website that moved between
 * workspaces shows only the rows of the workspace that lists it now.
 */
import type { ColumnSpec, TableSpec } from '../destination/table-spec.ts';
import { type ViewDialect, type ViewSpec, VIEW_MARKER } from '../destination/view-spec.ts';
import { DEFAULT_WORKSPACE, WORKSPACE_COLUMN } from '../destination/workspace.ts';
import { completenessTable, coverageTable } from '../destination/engine-tables.ts';
import {
  analyticsCompetitorsTable,
  analyticsHistoryTable,
  analyticsLatestTable,
  analyticsProvidersTable,
} from './analytics.ts';
import { citationsTable, mentionsTable } from './evidence.ts';
import { freshnessColumns, freshnessQuery } from './freshness-view.ts';
import { type ViewColumn, viewColumnValue, withVariantsFolded } from './variant-columns.ts';
import { websitesTable } from './websites.ts';

const WORKSPACE_IN_VIEW: ColumnSpec = {
  ...WORKSPACE_COLUMN,
  nullable: false,
  description: 'The workspace whose API key read the row; `default` for a single `source:` (never NULL here).',
};

/**
 * The website's address beside its `website_id` in the analytics views, from the listed
 * website the view joins anyway: a chart or a BI tool names the website without a join.
 */
const DOMAIN_URL_IN_VIEW: ColumnSpec = {
  ...websitesTable.columns.find((c) => c.name === 'domain_url')!,
  description: "The website's address (a URI), from `websites.domain_url`.",
};

/**
 * The view's columns: the table's, each with its variants folded in (`withVariantsFolded`),
 * `_workspace` never NULL, without those left out.
 */
const viewColumns = (columns: readonly ColumnSpec[], without: readonly string[] = []): ViewColumn[] =>
  withVariantsFolded(columns.filter((c) => !without.includes(c.name))).map((v) =>
    v.column.name === WORKSPACE_COLUMN.name ? { column: WORKSPACE_IN_VIEW, parts: [WORKSPACE_IN_VIEW] } : v,
  );

/** An analytics view's columns: the table's as `viewColumns` has them, `domain_url` after `website_id`. */
const analyticsViewColumns = (columns: readonly ColumnSpec[]): ViewColumn[] =>
  viewColumns(columns).flatMap((v) =>
    v.column.name === 'website_id' ? [v, { column: DOMAIN_URL_IN_VIEW, parts: [DOMAIN_URL_IN_VIEW] }] : [v],
  );

const specColumns = (columns: readonly ViewColumn[]): ColumnSpec[] => columns.map((v) => v.column);

/** The view columns that fold variants in (`ViewSpec.retyped`). */
const retyped = (columns: readonly ViewColumn[]): string[] =>
  columns.filter((v) => v.parts.length > 1).map((v) => v.column.name);

/** Each column's value, `_workspace` read as `default` when NULL, `domain_url` the listed website's (`w`). */
function selectList(d: ViewDialect, alias: string, columns: readonly ViewColumn[]): string {
  return columns
    .map((v) =>
      v.column.name === WORKSPACE_COLUMN.name
        ? `${workspaceOf(d, alias)} AS ${d.column(v.column.name)}`
        : viewColumnValue(d, v.column === DOMAIN_URL_IN_VIEW ? 'w' : alias, v),
    )
    .join(',\n  ');
}

const workspaceOf = (d: ViewDialect, alias: string) =>
  `COALESCE(${alias}.${d.column(WORKSPACE_COLUMN.name)}, '${DEFAULT_WORKSPACE}')`;

/** `w` is a listed website and `alias`'s rows are of its workspace. */
const listedWebsite = (d: ViewDialect, alias: string, idColumn: string) =>
  `JOIN ${d.table(websitesTable.name)} AS w ON w.${d.column('id')} = ${alias}.${d.column(idColumn)} AND ${workspaceOf(d, 'w')} = ${workspaceOf(d, alias)}`;

/**
 * The breakdown rows of the analysis `analytics_latest` holds now, for current websites. A
 * snapshot without an analysis keys its breakdown rows by the empty string.
 */
function currentBreakdown(
  table: typeof analyticsProvidersTable | typeof analyticsCompetitorsTable,
  columns: readonly ViewColumn[],
) {
  return (d: ViewDialect) =>
    [
      `SELECT\n  ${selectList(d, 'b', columns)}`,
      `FROM ${d.table(table.name)} AS b`,
      `JOIN ${d.table(analyticsLatestTable.name)} AS a ON a.${d.column('website_id')} = b.${d.column('website_id')} AND COALESCE(a.${d.column('analysis_id')}, '') = b.${d.column('analysis_id')} AND ${workspaceOf(d, 'a')} = ${workspaceOf(d, 'b')}`,
      listedWebsite(d, 'b', 'website_id'),
      `WHERE w.${d.column('_removed_at')} IS NULL`,
    ].join('\n');
}

/**
 * `<table>_current`: the rows of `table` (as `tables` has it) whose website is current (its
 * `website_id` a website of `websites_current`), keyed as the table; `rows` says what one row is.
 */
function ofCurrentWebsites(table: TableSpec, websites: TableSpec, rows: string): ViewSpec {
  const columns = analyticsViewColumns(table.columns);
  return {
    name: `${table.name}_current`,
    description: `The \`${table.name}\` rows of current websites: one row per ${rows} of a website of \`websites_current\`. ${VIEW_MARKER}`,
    columns: specColumns(columns),
    retyped: retyped(columns),
    key: table.primaryKey,
    sources: [websites, table],
    query: (d) =>
      [
        `SELECT\n  ${selectList(d, 'r', columns)}`,
        `FROM ${d.table(table.name)} AS r`,
        listedWebsite(d, 'r', 'website_id'),
        `WHERE w.${d.column('_removed_at')} IS NULL`,
      ].join('\n'),
  };
}

/**
 * The views over `tables` as they are (their columns, those schema evolution added
 * included: docs/served-contract.md#schema-evolution); a table `tables` lacks is the contract's.
 * In dependency-free order (each reads tables only).
 */
export function viewsFor(tables: readonly TableSpec[] = []): ViewSpec[] {
  const as = <T extends TableSpec>(table: T): T =>
    (tables.find((t) => t.name === table.name) as T | undefined) ?? table;
  const websites = as(websitesTable);
  const latest = as(analyticsLatestTable);
  const providers = as(analyticsProvidersTable);
  const competitors = as(analyticsCompetitorsTable);

  const websitesCurrentColumns = viewColumns(websites.columns, ['_removed_at']);
  const analyticsCurrentColumns = analyticsViewColumns(latest.columns);
  const providersCurrentColumns = analyticsViewColumns(providers.columns);
  const competitorsCurrentColumns = analyticsViewColumns(competitors.columns);
  return [
    {
      name: 'websites_current',
      description: `The websites of the last complete listing of each workspace: \`websites\` without the removed ones (\`_removed_at IS NULL\`). ${VIEW_MARKER}`,
      columns: specColumns(websitesCurrentColumns),
      retyped: retyped(websitesCurrentColumns),
      key: ['id'],
      sources: [websites],
      query: (d) =>
        `SELECT\n  ${selectList(d, 'w', websitesCurrentColumns)}\nFROM ${d.table(websitesTable.name)} AS w\nWHERE w.${d.column('_removed_at')} IS NULL`,
    },
    {
      name: 'analytics_current',
      description: `The \`analytics_latest\` row of each current website (one row per website of \`websites_current\` that has a snapshot). ${VIEW_MARKER}`,
      columns: specColumns(analyticsCurrentColumns),
      retyped: retyped(analyticsCurrentColumns),
      key: ['website_id'],
      sources: [websites, latest],
      query: (d) =>
        `SELECT\n  ${selectList(d, 'a', analyticsCurrentColumns)}\nFROM ${d.table(analyticsLatestTable.name)} AS a\n${listedWebsite(d, 'a', 'website_id')}\nWHERE w.${d.column('_removed_at')} IS NULL`,
    },
    {
      name: 'analytics_providers_current',
      description: `The per-provider rows of the analysis \`analytics_latest\` holds now, for current websites: one row per website and provider. ${VIEW_MARKER}`,
      columns: specColumns(providersCurrentColumns),
      retyped: retyped(providersCurrentColumns),
      key: ['website_id', 'provider'],
      sources: [websites, latest, providers],
      query: currentBreakdown(analyticsProvidersTable, providersCurrentColumns),
    },
    {
      name: 'analytics_competitors_current',
      description: `The competitor rows of the analysis \`analytics_latest\` holds now, for current websites: one row per website and competitor. ${VIEW_MARKER}`,
      columns: specColumns(competitorsCurrentColumns),
      retyped: retyped(competitorsCurrentColumns),
      key: ['website_id', 'competitor_domain'],
      sources: [websites, latest, competitors],
      query: currentBreakdown(analyticsCompetitorsTable, competitorsCurrentColumns),
    },
    ofCurrentWebsites(as(analyticsHistoryTable), websites, 'finalized analysis'),
    ofCurrentWebsites(as(mentionsTable), websites, 'mention'),
    ofCurrentWebsites(as(citationsTable), websites, 'citation'),
    {
      name: 'freshness_current',
      description: `One row per workspace and stream any sync committed: how many current websites it covers and how far it is complete, as \`aivis status\` counts them over every current website (docs/operations.md#coverage). ${VIEW_MARKER}`,
      columns: freshnessColumns(WORKSPACE_IN_VIEW),
      key: ['_workspace', 'stream'],
      sources: [websites, completenessTable, coverageTable],
      query: freshnessQuery,
    },
  ];
}

/** The views over the contract's tables. */
export const VIEWS: readonly ViewSpec[] = viewsFor();
export const [
  websitesCurrentView,
  analyticsCurrentView,
  analyticsProvidersCurrentView,
  analyticsCompetitorsCurrentView,
  analyticsHistoryCurrentView,
  mentionsCurrentView,
  citationsCurrentView,
  freshnessCurrentView,
] = VIEWS as [ViewSpec, ViewSpec, ViewSpec, ViewSpec, ViewSpec, ViewSpec, ViewSpec, ViewSpec];
