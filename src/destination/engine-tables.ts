/**
 * The destination's own bookkeeping tables, beside the stream tables in every schema: saved
 * state, one row per run, rejected records, and the run lock's row. Connectors and the
 * shared bookkeeping (`bookkeeping.ts`) read and write them; the stream tables are
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
  primaryKey: ['stream', 'scope'],
  columns: [
    column('stream', 'string', false),
    column('scope', 'string', false),
    column('state', 'json', false),
    column('updated_at', 'timestamp', false),
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

/** One row per run: written when it starts, rewritten when it ends. */
export const runsTable: TableSpec = {
  name: '_aivis_runs',
  primaryKey: ['id'],
  columns: [
    column('id', 'string', false),
    column('command', 'string', false),
    column('started_at', 'timestamp', false),
    column('finished_at', 'timestamp'),
    column('status', 'string', false),
    column('counts', 'json', false),
    column('error', 'string'),
    WORKSPACE_COLUMN,
    // The run's OpenLineage runId (a UUID): its events and this row name the same run.
    column('lineage_run_id', 'string'),
  ],
};

/**
 * Records that failed validation. `id` is a hash of workspace, stream, scope and the raw
 * record, so a replayed page does not reject the same record twice and the workspace-wide
 * scope `*` of two workspaces never collides.
 */
export const rejectedTable: TableSpec = {
  name: '_aivis_rejected',
  primaryKey: ['id'],
  columns: [
    column('id', 'string', false),
    column('stream', 'string', false),
    column('scope', 'string', false),
    column('error', 'string', false),
    column('_raw', 'json', false),
    column('_run_id', 'string', false),
    column('_synced_at', 'timestamp', false),
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
  primaryKey: ['name'],
  columns: [
    column('name', 'string', false),
    column('run_id', 'string', false),
    column('host', 'string', false),
    column('pid', 'int64', false),
    // Text, not a timestamp: the refusal message repeats the holder's own words verbatim.
    column('started_at', 'string', false),
  ],
};

/**
 * How far each stream and scope is known complete (docs/architecture.md#completeness-and-metric-versions):
 * `complete_through` is the committed frontier of a feed, or the time a listing or snapshot was
 * read whole. Rows come from `src/trust/completeness.ts`, committed with the data they vouch for.
 */
export const completenessTable = tableSpec({
  name: '_aivis_completeness',
  primaryKey: ['stream', 'scope'],
  columns: [
    column('stream', 'string', false),
    column('scope', 'string', false),
    column('complete_through', 'timestamp', false),
    column('run_id', 'string', false),
    column('updated_at', 'timestamp', false),
    WORKSPACE_COLUMN,
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
  primaryKey: ['_workspace', 'version_key'],
  columns: [
    column(WORKSPACE_COLUMN.name, 'string', false),
    column('version_key', 'string', false),
    column('projection_version', 'string', false),
    column('metric_definition_bundle_version', 'string', false),
    column('metric_precision_version', 'string', false),
    column('metric_definition_versions', 'json', false),
    column('first_as_of', 'timestamp', false),
    column('last_as_of', 'timestamp', false),
    column('websites', 'int64', false),
    column('website_ids', 'json', false),
    column('first_run_id', 'string', false),
  ],
});

/** Tables every sync needs whatever streams it runs (the lock table is made by the lock). Which tables each stream writes: `src/streams/registry.ts`. */
export const ENGINE_TABLES: readonly TableSpec[] = [
  stateTable,
  runsTable,
  rejectedTable,
  completenessTable,
  metricVersionsTable,
];

/**
 * The stream table whose rows the engine marks removed (`Destination.markWebsitesRemoved`):
 * `websites` of src/tables/websites.ts, by its `id`, through its `_removed_at` column.
 */
export const REMOVABLE_TABLE = { name: 'websites', id: 'id', removedAt: '_removed_at' } as const;
