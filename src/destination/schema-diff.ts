/**
 * What `ensureTables` changes (create what is missing, add columns, never drop or retype),
 * and, for the ANSI destinations (Postgres, DuckDB), the run of it over their catalog.
 */
import { type Description, descriptionsOf, type StoredComment, staleDescriptions } from './descriptions.ts';
import {
  type AnsiNames,
  addColumnSql,
  commentSql,
  createSchemaSql,
  createTableSql,
  createViewSql,
} from './sql-statements.ts';
import type { ColumnSpec, TableSpec } from './table-spec.ts';
import { assertOwnView, type ExistingObject, storedViewDescription, type ViewSpec } from './view-spec.ts';

export interface SchemaChanges {
  /** Tables the destination lacks: create them whole. */
  readonly create: TableSpec[];
  /** Columns an existing table lacks: add them (nullable: existing rows have no value). */
  readonly add: { readonly table: TableSpec; readonly column: ColumnSpec }[];
}

/**
 * What `ensureTables` must do, given the columns each existing table has (table name ->
 * column names, as the catalog reports them). Never drops or retypes anything.
 */
export function schemaChanges(
  existing: ReadonlyMap<string, ReadonlySet<string>>,
  tables: readonly TableSpec[],
): SchemaChanges {
  const create: TableSpec[] = [];
  const add: SchemaChanges['add'] = [];
  for (const table of tables) {
    const columns = existing.get(table.name);
    if (!columns) create.push(table);
    else for (const column of table.columns) if (!columns.has(column.name)) add.push({ table, column });
  }
  return { create, add };
}

/** Groups catalog rows (`table_name`, `column_name`) into the map `schemaChanges` reads. */
export function columnsByTable(rows: readonly { table_name: string; column_name: string }[]): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const { table_name, column_name } of rows) {
    const set = map.get(table_name) ?? new Set<string>();
    set.add(column_name);
    map.set(table_name, set);
  }
  return map;
}

/** An ANSI destination's session as `ensureAnsiTables` uses it (Postgres, DuckDB). */
export interface AnsiCatalog extends AnsiNames {
  run(sql: string): Promise<unknown>;
  /** Runs a COMMENT statement; `run` when absent. Postgres's warns instead of failing when the user does not own the object. */
  comment?(sql: string): Promise<unknown>;
  schemaExists(): Promise<boolean>;
  /** Every column of the schema's tables and views, in each one's column order. */
  existingColumns(): Promise<{ table_name: string; column_name: string }[]>;
  /** Every table and view of the schema, by name. */
  existingObjects(): Promise<Map<string, ExistingObject>>;
  /** The comment of every table, view and column of the schema. */
  existingComments(): Promise<StoredComment[]>;
}

/**
 * Creates the schema and tables that are missing and adds the columns a table lacks; runs in
 * the caller's transaction, if any. Reads the catalog first, so a user without CREATE on the
 * database can still use a schema made for it.
 */
export async function ensureAnsiTables(catalog: AnsiCatalog, tables: readonly TableSpec[]): Promise<void> {
  if (!(await catalog.schemaExists())) await catalog.run(createSchemaSql(catalog.schema));
  const changes = schemaChanges(columnsByTable(await catalog.existingColumns()), tables);
  for (const table of changes.create)
    await catalog.run(createTableSql(catalog.table(table.name), table, catalog.dialect));
  for (const { table, column } of changes.add)
    await catalog.run(addColumnSql(catalog.table(table.name), column, catalog.dialect));
  await describeAnsi(catalog, descriptionsOf(tables, false));
}

/**
 * Creates or replaces `views` and sets their comments; refuses (exit 2) an object of a view's
 * name that aivis did not make. A view whose comment says it was made from this very query is
 * current and left alone; a view whose columns changed (or may have changed type: `retyped`) is dropped first (Postgres
 * replaces a view only when its old columns stay in place, of the same types). Runs in the caller's transaction.
 */
export async function ensureAnsiViews(catalog: AnsiCatalog, views: readonly ViewSpec[]): Promise<void> {
  if (!views.length) return;
  const objects = await catalog.existingObjects();
  for (const view of views) assertOwnView(view, objects.get(view.name), catalog.table(view.name));
  const columns = columnsByTable(await catalog.existingColumns());
  const wanted: Description[] = [];
  for (const view of views) {
    const target = catalog.table(view.name);
    const stored = storedViewDescription(view, view.query(catalog.viewDialect));
    wanted.push(...descriptionsOf([view], true).map((d) => (d.column === undefined ? { ...d, text: stored } : d)));
    if (objects.get(view.name)?.comment === stored) continue;
    const existing = [...(columns.get(view.name) ?? [])];
    const same = existing.join(',') === view.columns.map((c) => c.name).join(',') && !view.retyped?.length;
    if (objects.has(view.name) && !same) await catalog.run(`DROP VIEW ${target}`);
    await catalog.run(createViewSql(target, view, catalog.viewDialect));
  }
  await describeAnsi(catalog, wanted);
}

/** Sets the comments the catalog does not hold yet. */
async function describeAnsi(catalog: AnsiCatalog, wanted: readonly Description[]): Promise<void> {
  if (!wanted.length) return;
  const comment = catalog.comment?.bind(catalog) ?? catalog.run.bind(catalog);
  for (const description of staleDescriptions(wanted, await catalog.existingComments()))
    await comment(commentSql(catalog.table(description.table), description, catalog.dialect));
}
