import { column } from '../destination/table-spec.ts';

/**
 * Every data table carries these (docs/architecture.md#tables): load time, run id, and the
 * record as sent.
 */
export const LOAD_COLUMNS = [
  column('_synced_at', 'timestamp', false),
  column('_run_id', 'string', false),
  column('_raw', 'json', false),
] as const;
