/** A catalog's columns read back as logical types (`table-spec.ts`), for schema evolution. */
import type { ExistingColumns } from './evolved-column.ts';
import type { ColumnType } from './table-spec.ts';

/**
 * Groups catalog rows into columns by table, each column's type read through `types` (the
 * catalog's name of each SQL type aivis makes, upper-cased); a column of another type is left
 * out: aivis writes no value into it.
 */
/** A row of a catalog's column listing (`information_schema.columns` and the like). */
export interface CatalogColumn {
  readonly table_name: string;
  readonly column_name: string;
  readonly data_type: string;
}

export function columnTypesOf(
  rows: readonly CatalogColumn[],
  types: Readonly<Record<string, ColumnType>>,
): ExistingColumns {
  const tables = new Map<string, Map<string, ColumnType>>();
  for (const { table_name, column_name, data_type } of rows) {
    const columns = tables.get(table_name) ?? new Map<string, ColumnType>();
    tables.set(table_name, columns);
    const type = types[data_type.toUpperCase()];
    if (type) columns.set(column_name, type);
  }
  return tables;
}
