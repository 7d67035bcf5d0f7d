/**
 * BigQuery's tables and views through the tables API: created with their descriptions, then
 * changed by metadata only (added NULLABLE columns, descriptions), never rewritten; and the
 * logical types of the columns a table has (schema evolution).
 */
import type { ExistingColumns } from '../../src/destination/evolved-column.ts';
import type { ColumnType, TableSpec } from '../../src/destination/table-spec.ts';
import {
  assertOwnView,
  storedViewDescription,
  type ViewDialect,
  type ViewSpec,
} from '../../src/destination/view-spec.ts';
import { type BigqueryClient, TableChangedError } from './bigquery-client.ts';
import { schemaPatch } from './bigquery-schema-patch.ts';
import { columnTypesOfFields, targetField } from './bigquery-types.ts';

/** Patches of one table tried before giving up, each after re-reading it: one per run racing to change it, in practice. */
const PATCH_ATTEMPTS = 8;

/** Creates `table`, or adds the columns it lacks and sets its description. */
export async function ensureBigqueryTable(c: BigqueryClient, table: TableSpec): Promise<void> {
  // Runs of other workspaces or shards may add columns to the same table at once: a patch
  // names the version it was computed from, and one that lost the race is computed again.
  for (let attempt = 1; ; attempt++) {
    const existing = await c.tableMetadata(table.name);
    if (!existing) {
      await c.createTable(table.name, {
        fields: table.columns.map(targetField),
        description: table.description,
        partitionBy: table.partitionBy,
        clusterBy: table.clusterBy,
      });
      return;
    }
    // Metadata only: added NULLABLE columns and descriptions, never a rewrite.
    const fields = schemaPatch(existing.fields, table.columns);
    const description = existing.description === table.description ? undefined : table.description;
    if (!fields && description === undefined) return;
    try {
      await c.patchTable(table.name, { fields, description, ...(existing.etag ? { etag: existing.etag } : {}) });
      return;
    } catch (error) {
      if (!(error instanceof TableChangedError) || attempt >= PATCH_ATTEMPTS) throw error;
    }
  }
}

/** Creates or updates one view: its query and description, then its fields' descriptions. */
export async function ensureBigqueryView(
  c: BigqueryClient,
  view: ViewSpec,
  dialect: ViewDialect,
  where: string,
): Promise<void> {
  const existing = await c.tableMetadata(view.name);
  assertOwnView(
    view,
    existing && { kind: existing.type === 'VIEW' ? 'view' : 'table', comment: existing.description ?? null },
    where,
  );
  const query = view.query(dialect);
  const description = storedViewDescription(view, query);
  if (!existing) await c.createView(view.name, query, description);
  else if (existing.viewQuery !== query || existing.description !== description)
    await c.patchTable(view.name, { viewQuery: query, description });
  // BigQuery derives a view's fields from its query; their descriptions are set on them after.
  const current = existing && existing.viewQuery === query ? existing : await c.tableMetadata(view.name);
  const fields = schemaPatch(current?.fields ?? [], view.columns);
  if (fields) await c.patchTable(view.name, { fields });
}

/** The logical types of the columns of those of `tables` that exist. */
export async function bigqueryColumnTypes(c: BigqueryClient, tables: readonly TableSpec[]): Promise<ExistingColumns> {
  const found = new Map<string, Map<string, ColumnType>>();
  for (const table of tables) {
    const existing = await c.tableMetadata(table.name);
    if (existing) found.set(table.name, columnTypesOfFields(existing.fields));
  }
  return found;
}
