import type { TableSpec } from './table-spec.ts';

/**
 * The columns an upsert overwrites when the primary key already exists: every column except
 * the key and the `insertOnly` ones (e.g. `_first_seen_at`, written once).
 */
export function updatableColumns(table: TableSpec): string[] {
  const kept = new Set([...table.primaryKey, ...(table.insertOnly ?? [])]);
  return table.columns.map((c) => c.name).filter((name) => !kept.has(name));
}
