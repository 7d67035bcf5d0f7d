/**
 * docs/tables.md, generated from the table and view specs (`npm run schemas`): every table and
 * view, every column with its type on each destination and its description, the primary keys,
 * what fills each one, and analyst queries. The descriptions are the ones `sync` puts into
 * the warehouse, so the page and the catalog never disagree.
 */
import { DESTINATIONS, type DestinationRegistry } from '../connectors/registry.ts';
import { lockTable } from '../src/destination/engine-tables.ts';
import type { ColumnSpec, TableSpec } from '../src/destination/table-spec.ts';
import type { ViewSpec } from '../src/destination/view-spec.ts';
import { STREAM_NAMES, STREAM_TABLES } from '../src/streams/registry.ts';
import { ENGINE_TABLES, VIEWS } from '../src/tables/index.ts';
import { PROMPT_IMPORT_TABLES } from '../src/tables/prompt-imports.ts';

/** Three questions analysts ask first, answered over the views; each runs on DuckDB and Postgres as written. */
export const ANALYST_QUERIES: readonly { readonly title: string; readonly sql: string; readonly note?: string }[] = [
  {
    title: 'Current visibility and share of voice of each listed website, best first',
    sql: `select a.domain_url, a.visibility, a.share_of_voice, a.sentiment, a.as_of, a.is_partial
from aivis.analytics_current a
order by a.visibility desc nulls last, a.domain_url;`,
    note: 'A listed website without a snapshot yet (never measured) has no row here; `websites_current` lists it.',
  },
  {
    title: "Each website's strongest competitors in its current analysis",
    sql: `select c.domain_url, c.competitor_domain, c.share_of_voice, c.mentions
from aivis.analytics_competitors_current c
order by c.domain_url, c.share_of_voice desc nulls last, c.competitor_domain;`,
  },
  {
    title:
      'Monthly visibility of each listed website from its history, one series per projection and visibility definition',
    sql: `select w.domain_url, h.projection_version,
  h.metric_definition_versions ->> 'visibility' as visibility_definition,
  date_trunc('month', h.as_of) as month, avg(h.visibility) as visibility, count(*) as analyses
from aivis.analytics_history h
join aivis.websites_current w on w.id = h.website_id and w._workspace = coalesce(h._workspace, 'default')
group by w.domain_url, h.projection_version, h.metric_definition_versions ->> 'visibility',
  date_trunc('month', h.as_of)
order by w.domain_url, visibility_definition, month;`,
    note: [
      "A metric's definition can change while `projection_version` stays (the sandbox's fourth analysis",
      'of every website moves from `visibility_v1` to `visibility_v2`), and a series that averages',
      "across the change mixes two metrics: split on the plotted metric's entry of",
      '`metric_definition_versions`, as the run summary\'s "do not mix series across it" notice',
      "advises. On BigQuery read it with `JSON_VALUE(h.metric_definition_versions, '$.visibility')`,",
      'on Snowflake with `h.metric_definition_versions:visibility::string`. `metric_versions` lists',
      'every combination with its first and last `as_of`.',
    ].join('\n'),
  },
];

/** Which columns tell time by the machine that runs aivis, and which by the API. */
/** Which columns a sync may add to the stream tables (docs/served-contract.md#schema-evolution). */
const RUN_TIME_COLUMNS = [
  'The columns below are those of the bundled contract. Under `schema_evolution: evolve` (the',
  'default) a sync adds columns at run time, never dropping or renaming one',
  '([served-contract.md](served-contract.md#schema-evolution)):',
  '',
  '- to `websites`, `mentions` and `citations`: a field the served contract declares on the',
  "  stream's records and no column holds, named after the field (citations first of all: the",
  '  spec shows none of their fields);',
  '- to `analytics_latest`, `analytics_history` and `analytics_providers`: a new key of `metrics`',
  '  or `counts` that their object declares, and a new field of a snapshot, history point or',
  '  provider entry; to `analytics_competitors` the same when the competitor entry declares it;',
  '- to any of them: `<column>__<type>` when the declared type changes to one the column cannot',
  '  hold (`rank__string`).',
  '',
  'Every added column is nullable and described in the warehouse by the contract. The tables of',
  'the engine and of prompt imports never change at run time.',
  '',
];

const CLOCKS = [
  '## Two clocks',
  '',
  "Timestamps come from two clocks, and only one of them is the data's:",
  '',
  "- **The API's clock** (the service's own times, copied as sent): `as_of`, `available_at`,",
  "  `last_analysis_at`, `observed_at`, the prompt imports' `created_at`, `completed_at` and",
  '  `expires_at`, `metric_versions.first_as_of` and `last_as_of`, the saved frontier in',
  '  `_aivis_state.state`, and `_aivis_completeness.complete_through` of a feed',
  '  (`analytics_history`, `mentions`, `citations`: its committed frontier). Trends, baselines and',
  '  "how recent is the data" read these.',
  "- **The sync's clock** (the machine that ran aivis, when it did something): `_synced_at` on every",
  '  row, `websites._first_seen_at` (when a sync first listed the website, not when the service',
  "  added it) and `_removed_at` (when a complete listing first lacked it), the runs' `started_at`",
  '  and `finished_at`, every `updated_at`, and `_aivis_completeness.complete_through` of the',
  '  listing (`websites`) and of the snapshots (`analytics`): when a sync read them whole, and',
  '  `_aivis_contracts.first_seen_at` and `last_seen_at`: when a run read the served contract,',
  "  and `_aivis_coverage`'s `read_started_at`, `changed_at` and `checked_at`: runs' starts.",
  '',
  "So `_first_seen_at` of the websites of a first sync is that sync's time, however old the",
  'websites are, and a schedule that pauses for a week moves `_removed_at` by up to that week.',
  "Subtracting a sync-clock column from an API-clock one measures aivis's lag, not the data.",
  '',
  '## Provider and competitor trends start at the first sync',
  '',
  'The API serves history for websites only (`analytics_history`); the per-provider and',
  'per-competitor breakdowns come with the latest snapshot alone. `analytics_providers` and',
  '`analytics_competitors` keep the breakdown of every analysis that was the latest when a sync',
  'ran, so their trends start at your first sync, miss the analyses published and replaced between',
  'two syncs, and cannot be backfilled: `backfill` re-reads the feeds, and no endpoint returns a',
  'past breakdown. Sync at least as often as analyses are published to keep every one.',
  '',
];

/** What a field's type change does to its column and to the views (src/tables/variant-columns.ts). */
const TYPE_CHANGES = [
  '## Type changes',
  '',
  "When the served contract changes a field's type to one its column cannot hold (an integer",
  '`position_in_response` becoming a number), a sync adds a variant column `<column>__<type>`',
  "(`position_in_response__float64`): from the first sync under that contract (the document's",
  '`_aivis_contracts.first_seen_at`) the new values land there, and the old column keeps only the',
  'values its type holds, NULL otherwise. Its COMMENT says so. Every view shows a column and its',
  "variants as one column named after the old one: the variant's value where a row has one, else",
  "the old column's, typed to hold both (a float64 for an int64 and a float64; text when neither",
  'holds the other). So `avg(position_in_response)` over `mentions_current` covers every row, while',
  "over `mentions` it covers only the old column's. The view column's description says which columns",
  'it shows, and `aivis streams` prints the same descriptions a sync gives the views.',
  '',
];

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const code = (name: string) => `\`${name}\``;

/** One column per registered destination, named as its docs name it, with its type for each column. */
function columnRows(registry: DestinationRegistry, columns: readonly ColumnSpec[], key: readonly string[]): string[] {
  const { destinations } = registry;
  return [
    `| column | ${destinations.map((d) => d.name).join(' | ')} | NULL | description |`,
    `|---|${destinations.map(() => '---|').join('')}---|---|`,
    ...columns.map((c) =>
      [
        '',
        `${code(c.name)}${key.includes(c.name) ? ' (key)' : ''}`,
        ...destinations.map((d) => d.dialect.typeName(c.type)),
        c.nullable ? 'yes' : 'no',
        cell(c.description),
        '',
      ]
        .join(' | ')
        .trim(),
    ),
  ];
}

function tableSection(registry: DestinationRegistry, table: TableSpec, filledBy: string, note?: string): string[] {
  return [
    `### ${table.name}`,
    '',
    cell(table.description),
    '',
    `- Primary key: ${table.primaryKey.map(code).join(', ')}`,
    `- Filled by: ${filledBy}`,
    ...(note ? [`- ${note}`] : []),
    '',
    ...columnRows(registry, table.columns, table.primaryKey),
    '',
  ];
}

function viewSection(registry: DestinationRegistry, view: ViewSpec): string[] {
  return [
    `### ${view.name}`,
    '',
    cell(view.description),
    '',
    `- A view over ${view.sources.map((s) => code(s.name)).join(', ')}; one row per ${view.key.map(code).join(', ')}`,
    '- Filled by: `sync` creates or replaces it after the tables, so it is always as current as they are',
    '',
    ...columnRows(registry, view.columns, view.key),
    '',
  ];
}

/** The stream that writes each stream table. */
function streamOf(table: TableSpec): string {
  const stream = STREAM_NAMES.find((name) => STREAM_TABLES[name].some((t) => t.name === table.name));
  return `stream ${code(stream ?? '?')} (\`aivis sync\`)`;
}

/** The page, with a type column for each destination of `registry`. */
export function buildTablesDoc(registry: DestinationRegistry = DESTINATIONS): string {
  const streamTables = [...new Set(STREAM_NAMES.flatMap((name) => STREAM_TABLES[name]))];
  const lines = [
    '# Tables and views',
    '',
    '<!-- Generated by `npm run schemas` from src/tables/ and src/destination/engine-tables.ts; do not edit by hand. -->',
    '',
    'Everything aivis writes into the configured schema (dataset), column by column, with the',
    'type each destination stores and what the value means. The same descriptions are in the',
    'warehouse: `COMMENT` on Postgres, DuckDB and Snowflake, table and field descriptions on',
    'BigQuery, so `\\d+ aivis.websites` or a BI tool shows them too.',
    '',
    'Start with the views: they hold what is current. The base tables keep history the views',
    'leave out (removed websites, the breakdown of every analysis that was the latest at some',
    'sync). A metric that is NULL was not measured, never 0: `unavailable_reasons` says why;',
    'except a metric the served contract added (a column added at run time), which is NULL with',
    'no reason on rows published before the metric existed: their `metric_definition_versions`',
    'has no entry for it.',
    '',
    '## Queries to start with',
    '',
    ...ANALYST_QUERIES.flatMap((q) => [`${q.title}:`, '', '```sql', q.sql, '```', '', ...(q.note ? [q.note, ''] : [])]),
    ...CLOCKS,
    '## Views',
    '',
    ...VIEWS.flatMap((view) => viewSection(registry, view)),
    ...TYPE_CHANGES,
    '## Stream tables',
    '',
    ...RUN_TIME_COLUMNS,
    ...streamTables.flatMap((t) => tableSection(registry, t, streamOf(t))),
    '## Prompt import tables',
    '',
    ...PROMPT_IMPORT_TABLES.flatMap((t) =>
      tableSection(registry, t, '`aivis import-prompts`, when the config has a destination'),
    ),
    '## Engine tables',
    '',
    'The bookkeeping every sync keeps beside the data; read them, never write them.',
    '',
    ...ENGINE_TABLES.flatMap((t) => tableSection(registry, t, 'every `aivis sync` and `backfill`')),
    ...tableSection(
      registry,
      lockTable,
      'the run lock',
      'BigQuery and Snowflake add `expires_at` (the lease end), Snowflake also `session_id`',
    ),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
