import type { ColumnSpec, TableSpec } from './table-spec.ts';

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
