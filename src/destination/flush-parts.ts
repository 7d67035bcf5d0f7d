import type { Flush, TableRows } from './destination.ts';
import { stateTableRows } from './state-rows.ts';

/**
 * A flush as one part per table, in first-seen order, rows kept in flush order (so "last row
 * wins" still holds), with the state entries last as `_aivis_state` rows. Connectors stage
 * and upsert each part once, and state lands after the rows it describes.
 */
export function flushParts(flush: Flush): TableRows[] {
  const parts = new Map<string, { table: TableRows['table']; rows: TableRows['rows'][number][] }>();
  for (const { table, rows } of flush.tables) {
    const part = parts.get(table.name) ?? parts.set(table.name, { table, rows: [] }).get(table.name)!;
    for (const row of rows) part.rows.push(row);
  }
  const merged: TableRows[] = [...parts.values()].filter((p) => p.rows.length > 0);
  return flush.state.length > 0 ? [...merged, stateTableRows(flush.state)] : merged;
}
