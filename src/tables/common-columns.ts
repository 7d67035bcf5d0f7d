import { column } from '../destination/table-spec.ts';
import { WORKSPACE_COLUMN } from '../destination/workspace.ts';

/**
 * Every data table carries these (docs/architecture.md#tables): load time, run id, the
 * record as sent, and the workspace it came from (docs/architecture.md#many-workspaces).
 */
export const LOAD_COLUMNS = [
  column('_synced_at', 'timestamp', false),
  column('_run_id', 'string', false),
  column('_raw', 'json', false),
  WORKSPACE_COLUMN,
] as const;
