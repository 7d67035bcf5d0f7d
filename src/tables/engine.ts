import { column, type TableSpec } from '../destination/table-spec.ts';

/** Saved sync state, one row per stream and scope (website id, or `*` for the listing). */
export const stateTable: TableSpec = {
  name: '_aivis_state',
  primaryKey: ['stream', 'scope'],
  columns: [
    column('stream', 'string', false),
    column('scope', 'string', false),
    column('state', 'json', false),
    column('updated_at', 'timestamp', false),
  ],
};

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
  ],
};

/**
 * Records that failed validation. `id` is a hash of stream, scope and the raw record, so a
 * replayed page does not reject the same record twice.
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
  ],
};
