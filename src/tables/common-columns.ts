import { column, type ColumnSpec } from '../destination/table-spec.ts';

/** Every data table carries these (design §3): load time, run id, and the record as sent. */
export const LOAD_COLUMNS: readonly ColumnSpec[] = [
  column('_synced_at', 'timestamp', false),
  column('_run_id', 'string', false),
  column('_raw', 'json', false),
];
