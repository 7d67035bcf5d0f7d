/**
 * Workspaces in one schema (docs/architecture.md#many-workspaces): every row says which
 * workspace it came from in `_workspace`, and the engine's bookkeeping reads and writes one
 * workspace at a time. Rows written before workspaces existed have a NULL `_workspace`: they
 * belong to `default`, the workspace of a config with a single `source:`.
 */
import { column } from './table-spec.ts';

export const DEFAULT_WORKSPACE = 'default';

/** The column every stream table and every engine table carries. Nullable: older rows have none. */
export const WORKSPACE_COLUMN = column(
  '_workspace',
  'string',
  'The workspace (config `sources:` name) whose API key read the row; `default` for a single `source:`. NULL on rows written before workspaces existed, and it means `default`.',
);

/** The workspace a stored `_workspace` value stands for (NULL: `default`). */
export function storedWorkspace(value: unknown): string {
  return value === null || value === undefined ? DEFAULT_WORKSPACE : String(value);
}

/**
 * A condition true for rows of `workspace`, given the quoted column and the workspace's
 * placeholder; NULL counts as `default`.
 */
export function workspaceCondition(column: string, placeholder: string): string {
  return `COALESCE(${column}, '${DEFAULT_WORKSPACE}') = ${placeholder}`;
}
