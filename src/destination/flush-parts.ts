import type { TableRows } from './destination.ts';
import type { Row, TableSpec } from './table-spec.ts';
import { microsecondTimestamp } from './timestamp-micros.ts';

/**
 * A flush's table rows as one part per table, in first-seen order, holding ONE row per
 * primary key: the last one of the flush (inclusive `updated_since` windows and replays repeat rows). Deduping
 * here, in one linear pass, spares every warehouse a sort, and no upsert or MERGE ever meets
 * two source rows for one key. A part keeps its first-seen place, so `_aivis_state` rows
 * given last stay last and state lands after the rows it describes. Timestamp cells leave in their stored form (truncated to
 * the microsecond, see `timestamp-micros.ts`), so every destination stores the same instant.
 */
export function flushParts(tables: readonly TableRows[]): TableRows[] {
  const parts = new Map<string, { table: TableSpec; rows: Map<string, Row> }>();
  for (const { table, rows } of tables) {
    const part = parts.get(table.name) ?? parts.set(table.name, { table, rows: new Map() }).get(table.name)!;
    const timestamps = table.columns.filter((c) => c.type === 'timestamp').map((c) => c.name);
    for (const written of rows) {
      const row = withStoredTimestamps(written, timestamps);
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

/** The row with its timestamp cells in stored form; the same object when they are already. */
function withStoredTimestamps(row: Row, columns: readonly string[]): Row {
  let copy: Record<string, Row[string]> | undefined;
  for (const column of columns) {
    const value = row[column];
    if (typeof value !== 'string') continue;
    const stored = microsecondTimestamp(value);
    if (stored !== value) (copy ??= { ...row })[column] = stored;
  }
  return copy ?? row;
}
