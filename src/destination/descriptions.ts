/**
 * Descriptions go into the warehouse (docs/architecture.md#tables): each table, view and column
 * spec's `description` becomes its comment (Postgres, DuckDB, Snowflake) or its BigQuery
 * description. A sync sets only those that differ from what the catalog holds, so a changed
 * description costs one metadata statement, never a table rewrite.
 */
import type { TableSpec } from './table-spec.ts';
import type { ViewSpec } from './view-spec.ts';

/** One described object: a table or view (`column` absent), or one of its columns. */
export interface Description {
  readonly table: string;
  readonly view: boolean;
  readonly column?: string;
  readonly text: string;
}

/** A comment the catalog holds; `column_name` null for the table's or view's own. */
export interface StoredComment {
  readonly table_name: string;
  readonly column_name: string | null;
  readonly comment: string | null;
}

export function descriptionsOf(objects: readonly (TableSpec | ViewSpec)[], view: boolean): Description[] {
  return objects.flatMap((object) => [
    { table: object.name, view, text: object.description },
    ...object.columns.map((c) => ({ table: object.name, view, column: c.name, text: c.description })),
  ]);
}

/**
 * The descriptions the catalog does not hold yet. Names compare without case: Snowflake's
 * catalog reports unquoted names upper-case.
 */
export function staleDescriptions(wanted: readonly Description[], stored: readonly StoredComment[]): Description[] {
  const key = (table: string, column: string | null | undefined) =>
    `${table.toLowerCase()}\u0000${column?.toLowerCase() ?? ''}`;
  const held = new Map(stored.map((s) => [key(s.table_name, s.column_name), s.comment ?? '']));
  return wanted.filter((d) => held.get(key(d.table, d.column)) !== d.text);
}
