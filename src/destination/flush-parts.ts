import type { TableRows } from './destination.ts';
import { wellFormedJson, wellFormedText } from '../json/well-formed.ts';
import type { ColumnSpec, ColumnType, Row, TableSpec } from './table-spec.ts';
import { microsecondTimestamp } from './timestamp-micros.ts';

/**
 * A flush's table rows as one part per table, in first-seen order, holding ONE row per
 * primary key: the last one of the flush (inclusive `updated_since` windows and replays repeat rows). Deduping
 * here, in one linear pass, spares every warehouse a sort, and no upsert or MERGE ever meets
 * two source rows for one key. A part keeps its first-seen place, so `_aivis_state` rows
 * given last stay last and state lands after the rows it describes. Cells leave in their stored form, so every destination
 * stores the same value: timestamps truncated to the microsecond (`timestamp-micros.ts`), text and JSON with each unpaired
 * UTF-16 surrogate as U+FFFD (`src/json/well-formed.ts`).
 */
export function flushParts(tables: readonly TableRows[]): TableRows[] {
  const parts = new Map<string, { table: TableSpec; rows: Map<string, Row> }>();
  for (const { table, rows } of tables) {
    const part = parts.get(table.name) ?? parts.set(table.name, { table, rows: new Map() }).get(table.name)!;
    const columns = table.columns.filter((c) => c.type in STORED_FORM);
    for (const written of rows) {
      const row = withStoredCells(written, columns);
      const key = primaryKeyOf(table, row);
      // Re-inserting moves the key to the end: rows keep the order of their last occurrence.
      part.rows.delete(key);
      part.rows.set(key, row);
    }
  }
  return [...parts.values()]
    .filter((p) => p.rows.size > 0)
    .map((p) => ({ table: p.table, rows: [...p.rows.values()] }));
}

/** Typed and JSON-encoded, so a NULL key (which the warehouse will refuse) never equals the text "null" and no separator can be forged. */
function primaryKeyOf(table: TableSpec, row: Row): string {
  return JSON.stringify(table.primaryKey.map((column) => [typeof row[column], String(row[column])]));
}

/** The stored form of a cell, by its column's type. */
const STORED_FORM: Partial<Record<ColumnType, (value: string) => string>> = {
  timestamp: microsecondTimestamp,
  string: wellFormedText,
  json: wellFormedJson,
};

/** The row with its cells in stored form; the same object when they are already. */
function withStoredCells(row: Row, columns: readonly ColumnSpec[]): Row {
  let copy: Record<string, Row[string]> | undefined;
  for (const { name, type } of columns) {
    const value = row[name];
    if (typeof value !== 'string') continue;
    const stored = STORED_FORM[type]!(value);
    if (stored !== value) (copy ??= { ...row })[name] = stored;
  }
  return copy ?? row;
}
