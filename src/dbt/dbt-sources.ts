/**
 * The dbt property file `aivis dbt-sources` prints (docs/architecture.md#tables): one source
 * over the configured schema, every table and view it holds with the descriptions of their
 * specs, `unique` + `not_null` tests on each primary key, and freshness on the feed tables read
 * from `_aivis_completeness` through `loaded_at_query` (dbt 1.10). Shaped by dbt's published
 * JSON Schema (`dbt_yml_files-latest.json`), which the tests validate it against.
 */
import type { SqlDialect } from '../destination/sql-dialect.ts';
import type { ColumnSpec, TableSpec } from '../destination/table-spec.ts';
import type { ViewSpec } from '../destination/view-spec.ts';
import { DEFAULT_WORKSPACE, WORKSPACE_COLUMN } from '../destination/workspace.ts';
import { FEED_STREAMS } from '../streams/registry.ts';
import { completenessTable, websitesCurrentView } from '../tables/index.ts';

/** The name models use: `{{ source('aivis', 'mentions') }}`. */
export const DBT_SOURCE_NAME = 'aivis';

/** How stale a feed may be before `dbt source freshness` warns, then errors (as docs/operations.md shows). */
const FRESHNESS = { warn_after: { count: 6, period: 'hour' }, error_after: { count: 24, period: 'hour' } } as const;

export interface DbtSourcesInput {
  /** The destination's SQL dialect (its descriptor's): how a key is cast to text, a scope split. */
  readonly dialect: SqlDialect;
  /** The destination's database and schema (`Destination.namespace`). */
  readonly namespace: { readonly database: string; readonly schema: string };
  readonly tables: readonly TableSpec[];
  readonly views: readonly ViewSpec[];
  /** Only this workspace's completeness counts for freshness; absent: every workspace's. */
  readonly workspace?: string;
}

type Json = Record<string, unknown>;

function columnEntry(column: ColumnSpec, key: readonly string[]): Json {
  const tests =
    key.length === 1 && key[0] === column.name ? ['unique', 'not_null'] : key.includes(column.name) ? ['not_null'] : [];
  return { name: column.name, description: column.description, ...(tests.length ? { data_tests: tests } : {}) };
}

/** A composite key as one text value, for dbt's `unique` test (dbt has no built-in multi-column unique). */
function keyExpression(dialect: SqlDialect, key: readonly string[]): string {
  return key.map((c) => dialect.cast(c, 'string')).join(` || '|' || `);
}

function tableEntry(
  input: DbtSourcesInput,
  name: string,
  description: string,
  columns: readonly ColumnSpec[],
  key: readonly string[],
): Json {
  return {
    name,
    description,
    ...(key.length > 1 ? { data_tests: [{ unique: { column_name: keyExpression(input.dialect, key) } }] } : {}),
    columns: columns.map((c) => columnEntry(c, key)),
  };
}

/**
 * The website a completeness scope belongs to: a scope is a website id, or the id with a scan
 * filter (`web_1?provider=gemini`, `web_1?analysis_id=...`), as `aivis status` reads it.
 */
function scopeWebsite(dialect: SqlDialect): string {
  return dialect.firstPart('scope', '?');
}

/**
 * The oldest `complete_through` of the stream over the websites still listed (what
 * `aivis status` judges by): one website stuck behind makes the source stale, and one listed
 * website that never completed the stream makes it null, so dbt never calls it fresh
 * (docs/operations.md#coverage).
 */
function loadedAtQuery(input: DbtSourcesInput, stream: string): string {
  const completeness = `{{ source('${DBT_SOURCE_NAME}', '${completenessTable.name}') }}`;
  const current = `{{ source('${DBT_SOURCE_NAME}', '${websitesCurrentView.name}') }}`;
  const ofWorkspace = (column: string) =>
    input.workspace === undefined ? '' : ` and coalesce(${column}, '${DEFAULT_WORKSPACE}') = '${input.workspace}'`;
  const workspace = ofWorkspace(WORKSPACE_COLUMN.name);
  const ofStream = `from ${completeness} where stream = '${stream}'${workspace}`;
  const neverCompleted = `exists (select 1 from ${current} w where w.id not in (select ${scopeWebsite(input.dialect)} ${ofStream})${ofWorkspace(`w.${WORKSPACE_COLUMN.name}`)})`;
  return `select case when ${neverCompleted} then null else min(complete_through) end ${ofStream} and ${scopeWebsite(input.dialect)} in (select id from ${current})`;
}

export function dbtSources(input: DbtSourcesInput): Json {
  const feeds = new Map(FEED_STREAMS.map((s) => [s.table.name, s.name]));
  const canTrackFreshness =
    input.tables.some((t) => t.name === completenessTable.name) &&
    input.views.some((view) => view.name === websitesCurrentView.name);
  const tables = input.tables.map((table) => {
    const entry = tableEntry(input, table.name, table.description, table.columns, table.primaryKey);
    const stream = feeds.get(table.name);
    if (!stream || !canTrackFreshness) return entry;
    return { ...entry, freshness: FRESHNESS, config: { loaded_at_query: loadedAtQuery(input, stream) } };
  });
  const views = input.views.map((view) => tableEntry(input, view.name, view.description, view.columns, view.key));
  return {
    version: 2,
    sources: [
      {
        name: DBT_SOURCE_NAME,
        description:
          'The AI-search visibility data aivis loads (websites, analytics, mentions, citations), its analyst views and its bookkeeping tables.',
        database: input.namespace.database,
        schema: input.namespace.schema,
        loader: 'aivis',
        tables: [...tables, ...views],
      },
    ],
  };
}
