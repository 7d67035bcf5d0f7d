/**
 * The destination's own bookkeeping tables, beside the stream tables in every schema: saved
 * state, one row per run, rejected records, and the run lock's row. Connectors and the
 * bookkeeping queries (`queries/`) read and write them; the stream tables are
 * `src/tables/`'s business.
 */
import { column, type TableSpec, tableSpec } from './table-spec.ts';
import { WORKSPACE_COLUMN } from './workspace.ts';

/**
 * Saved sync state, one row per stream and scope. Scopes are website ids (one id space across
 * workspaces), so the key stays `(stream, scope)`; `_workspace` says whose state it is.
 */
export const stateTable: TableSpec = {
  name: '_aivis_state',
  description:
    'Engine table: the saved sync state (frontier and cursor) of each stream and scope. Read by `aivis state show`.',
  primaryKey: ['stream', 'scope'],
  columns: [
    column('stream', 'string', false, 'The stream.'),
    column(
      'scope',
      'string',
      false,
      'The scope: a website id, `*` for the listing, or a website id with a scan filter.',
    ),
    column(
      'state',
      'json',
      false,
      "The state: `frontier` (the API's scan bound, verbatim), `cursor`, `pending_upper_bound`.",
    ),
    column('updated_at', 'timestamp', false, 'When the state was saved.'),
    WORKSPACE_COLUMN,
  ],
};

/** A stored `_aivis_state` row read back; `state` may arrive as JSON text or already parsed. */
export interface StoredStateRow {
  readonly stream: string;
  readonly scope: string;
  readonly state: unknown;
  readonly updated_at: string;
  readonly _workspace: string | null;
}

/** The commands that record a run in `_aivis_runs` (`verify --repair` writes rows but no run row). */
export const RUN_COMMANDS = ['sync', 'backfill'] as const;
export type RunCommand = (typeof RUN_COMMANDS)[number];

/** How a run ended, as `_aivis_runs.status` records it, each with what it means when that is not plain. */
const RUN_OUTCOME_NOTES = {
  succeeded: '',
  partial: 'records rejected or websites failed',
  failed: '',
  stopped: 'by a stop signal',
} as const;
export type RunOutcome = keyof typeof RUN_OUTCOME_NOTES;

const code = (text: string) => `\`${text}\``;
/** `a`, `b` or `c`. */
const either = (words: readonly string[]) => `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;

/** One row per run: written when it starts, rewritten when it ends. */
export const runsTable: TableSpec = {
  name: '_aivis_runs',
  description: `Engine table: one row per run of ${either(RUN_COMMANDS.map(code))}, written when it starts and when it ends.`,
  primaryKey: ['id'],
  columns: [
    column('id', 'string', false, 'The run id (the `_run_id` of the rows it wrote).'),
    column('command', 'string', false, `The command that ran: ${either(RUN_COMMANDS.map(code))}.`),
    column('started_at', 'timestamp', false, 'When the run started.'),
    column('finished_at', 'timestamp', 'When the run ended; NULL while running, or when it was killed (`abandoned`).'),
    column(
      'status',
      'string',
      false,
      `\`running\` while it runs; then how it ended: ${either(
        Object.entries(RUN_OUTCOME_NOTES).map(([status, note]) => (note ? `${code(status)} (${note})` : code(status))),
      )}; \`abandoned\` when a later run found it still \`running\` (the process was killed).`,
    ),
    column('counts', 'json', false, 'Rows, requests, rejections and metric version notices per stream, as JSON.'),
    column('error', 'string', 'Why the run failed; NULL otherwise.'),
    WORKSPACE_COLUMN,
    // The run's OpenLineage runId (a UUID): its events and this row name the same run.
    column('lineage_run_id', 'string', "The run's OpenLineage runId (a UUID), when lineage events were sent for it."),
  ],
};

/**
 * Records that failed validation. `id` is a hash of workspace, stream, scope and the raw
 * record, so a replayed page does not reject the same record twice and the workspace-wide
 * scope `*` of two workspaces never collides.
 */
export const rejectedTable: TableSpec = {
  name: '_aivis_rejected',
  description: 'Engine table: records that broke the documented schema, kept with the reason instead of being dropped.',
  primaryKey: ['id'],
  columns: [
    column('id', 'string', false, 'A hash of workspace, stream, scope and record: the same record is rejected once.'),
    column('stream', 'string', false, 'The stream the record came from.'),
    column('scope', 'string', false, 'The scope it was read in (a website id, or `*`).'),
    column('error', 'string', false, 'What is wrong with the record: field and rule.'),
    column('_raw', 'json', false, 'The record exactly as the API sent it.'),
    column('_run_id', 'string', false, 'The run that rejected it.'),
    column('_synced_at', 'timestamp', false, 'When it was rejected.'),
    WORKSPACE_COLUMN,
  ],
};

/**
 * The run lock's visible half: one row naming the holder, so a refused run can say who holds
 * the lock. Liveness comes from elsewhere (a connection-bound advisory lock, a file lock, a
 * lease), depending on the destination.
 */
export const lockTable: TableSpec = {
  name: '_aivis_lock',
  description: 'Engine table: who holds the run lock of each workspace, so a refused run can say who.',
  primaryKey: ['name'],
  columns: [
    column('name', 'string', false, 'The lock: `sync`, or `sync:<workspace>`.'),
    column('run_id', 'string', false, 'The run holding it.'),
    column('host', 'string', false, 'The host the run runs on.'),
    column('pid', 'int64', false, 'The process id of the run.'),
    // Text, not a timestamp: the refusal message repeats the holder's own words verbatim.
    column('started_at', 'string', false, 'When the run started (ISO 8601 text).'),
  ],
};

/**
 * How far each stream and scope is known complete (docs/architecture.md#completeness-and-metric-versions):
 * `complete_through` is the committed frontier of a feed, or the time a listing or snapshot was
 * read whole. Rows come from `src/trust/completeness.ts`, committed with the data they vouch for.
 */
export const completenessTable = tableSpec({
  name: '_aivis_completeness',
  description:
    'Engine table: how far each stream and scope is known complete. Everything the API published before `complete_through` is loaded; use it for freshness checks.',
  primaryKey: ['stream', 'scope'],
  columns: [
    column('stream', 'string', false, 'The stream.'),
    column('scope', 'string', false, 'A website id; `*` (or `*:<workspace>`) for the listing.'),
    column(
      'complete_through',
      'timestamp',
      false,
      "Every record published before this time is loaded: a feed's committed frontier, or when a listing or snapshot was read whole.",
    ),
    column('run_id', 'string', false, 'The run that moved it last.'),
    column('updated_at', 'timestamp', false, 'When it moved last.'),
    WORKSPACE_COLUMN,
  ],
});

/**
 * Change-driven reads' ledger (docs/configuration.md#change-driven-reads): per workspace,
 * website and stream, what the listing said when the stream was last read whole, and when a
 * listing last showed it unchanged. The run planner (src/plan/) reads it to skip what did not
 * change; `aivis status` counts coverage from it. A row is committed with the stream's last
 * flush for the website, never ahead of the rows it vouches for.
 */
export const coverageTable = tableSpec({
  name: '_aivis_coverage',
  description:
    "Engine table: per workspace, website and stream, when the stream was last read whole and what the listing's `last_analysis_at` was then; `aivis status` counts coverage from it.",
  primaryKey: ['_workspace', 'website_id', 'stream'],
  columns: [
    column(WORKSPACE_COLUMN.name, 'string', false, 'The workspace the website belongs to.'),
    column('website_id', 'string', false, 'The website.'),
    column('stream', 'string', false, 'The stream.'),
    column(
      'last_analysis_at',
      'string',
      "The website's `last_analysis_at` as listed when the stream was last read whole for it: text verbatim; NULL for a website not yet measured.",
    ),
    column(
      'read_started_at',
      'timestamp',
      false,
      'The start of the run that last read the stream whole for the website.',
    ),
    column('read_run_id', 'string', false, 'That run.'),
    column('changed_at', 'timestamp', false, 'The start of the run that first saw this `last_analysis_at`.'),
    column(
      'checked_at',
      'timestamp',
      'The start of the last run whose complete listing showed the website unchanged (and skipped the stream); NULL before any.',
    ),
  ],
});

/**
 * One row per workspace and distinct combination of the four version tags analytics rows carry
 * (spec 9.4), kept by `src/trust/metric-versions.ts`. `version_key` (the canonical JSON of the
 * four tags) is in the key because a JSON column cannot be one on every warehouse; `website_ids`
 * keeps the set behind the `websites` count, so a later run adds each website once. Each
 * workspace keeps its own rows (docs/architecture.md#many-workspaces): its runs widen only
 * those, so concurrent runs of two workspaces never write the same row. `_workspace` is a key
 * column here, hence not nullable: the table is younger than workspaces, so it has no older rows.
 */
export const metricVersionsTable = tableSpec({
  name: 'metric_versions',
  description:
    'One row per workspace and combination of metric version tags its analytics rows carry: when it was first and last seen, and on how many websites.',
  primaryKey: ['_workspace', 'version_key'],
  columns: [
    column(WORKSPACE_COLUMN.name, 'string', false, 'The workspace whose rows carry the combination.'),
    column('version_key', 'string', false, "The four tags as canonical JSON: the combination's key."),
    column('projection_version', 'string', false, 'The projection version (`public_metrics_vN`).'),
    column('metric_definition_bundle_version', 'string', false, 'The metric definition bundle version.'),
    column('metric_precision_version', 'string', false, 'The metric precision version.'),
    column('metric_definition_versions', 'json', false, "Each metric's definition version, as JSON."),
    column('first_as_of', 'timestamp', false, 'The earliest `as_of` of a row with the combination.'),
    column('last_as_of', 'timestamp', false, 'The latest `as_of` of a row with the combination.'),
    column('websites', 'int64', false, 'How many websites have rows with the combination.'),
    column('website_ids', 'json', false, "Those websites' ids, as a JSON array."),
    column('first_run_id', 'string', false, 'The run that first loaded the combination.'),
  ],
});

/**
 * One row per workspace and distinct served contract (docs/served-contract.md): the document as
 * served and its drift from the bundled contract. The newest row of a workspace is the document
 * in force when a run cannot read a usable one, and `aivis streams`, `dbt-sources` and lineage
 * read evolved columns from it. `_workspace` is a key column, hence not nullable: the table is
 * younger than workspaces.
 */
export const contractsTable = tableSpec({
  name: '_aivis_contracts',
  description:
    "Engine table: each distinct contract a workspace's API served at GET /public/v2/openapi.json, with its drift from the bundled contract; each workspace keeps its 10 most recently seen.",
  primaryKey: ['_workspace', 'sha256'],
  columns: [
    column(WORKSPACE_COLUMN.name, 'string', false, 'The workspace whose API served the document.'),
    column('sha256', 'string', false, 'Hex SHA-256 of the document as served (its UTF-8 body).'),
    column('first_seen_at', 'timestamp', false, 'When a run first read it.'),
    column('last_seen_at', 'timestamp', false, 'When a run last read it.'),
    column('first_run_id', 'string', false, 'The run that first read it.'),
    column('document', 'json', false, 'The document as served.'),
    column(
      'changes',
      'json',
      false,
      'Its drift from the bundled contract: a JSON array of `{stream, field, change, old, new}`.',
    ),
  ],
});

/** Tables every sync needs whatever streams it runs (the lock table is made by the lock). Which tables each stream writes: `src/streams/registry.ts`. */
export const ENGINE_TABLES: readonly TableSpec[] = [
  stateTable,
  runsTable,
  rejectedTable,
  completenessTable,
  metricVersionsTable,
  contractsTable,
  coverageTable,
];

/**
 * The stream table whose rows the engine marks removed (`markWebsitesRemoved` in queries/active-websites.ts):
 * `websites` of src/tables/websites.ts, by its `id`, through its `_removed_at` column.
 */
export const REMOVABLE_TABLE = { name: 'websites', id: 'id', removedAt: '_removed_at' } as const;
