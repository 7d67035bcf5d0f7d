import { column, holdingJson } from '../destination/table-spec.ts';
import { WORKSPACE_COLUMN } from '../destination/workspace.ts';

/**
 * Every data table carries these (docs/architecture.md#tables): load time, run id, the
 * record as sent, and the workspace it came from (docs/architecture.md#many-workspaces).
 */
export const LOAD_COLUMNS = [
  column('_synced_at', 'timestamp', false, 'When aivis last wrote the row (UTC, microseconds).'),
  column(
    '_run_id',
    'string',
    false,
    'The run that last wrote the row: an `_aivis_runs.id`, except on rows `verify --repair` wrote (a repair records no `_aivis_runs` row).',
  ),
  holdingJson(
    ['object'],
    column('_raw', 'json', false, 'The record exactly as the API sent it, fields aivis has no column for included.'),
  ),
  WORKSPACE_COLUMN,
] as const;
