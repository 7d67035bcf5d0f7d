/**
 * What `tables.patch` must send to bring a table's or view's schema to its spec without a
 * rewrite: fields appended as NULLABLE (BigQuery cannot add a REQUIRED column to old rows) and
 * each field's description set where it differs. Nothing else ever changes.
 */
import type { ColumnSpec } from '../../src/destination/table-spec.ts';
import { type BigqueryField, targetField } from './bigquery-types.ts';

/** The whole field list to patch in, or undefined when the schema is as the spec says. */
export function schemaPatch(
  existing: readonly BigqueryField[],
  columns: readonly ColumnSpec[],
): BigqueryField[] | undefined {
  const wanted = new Map(columns.map((c) => [c.name, c.description]));
  let changed = false;
  const fields = existing.map((field) => {
    const description = wanted.get(field.name);
    if (description === undefined || (field.description ?? '') === description) return field;
    changed = true;
    return { ...field, description };
  });
  const known = new Set(existing.map((f) => f.name));
  const added = columns
    .filter((c) => !known.has(c.name))
    .map((c) => ({ ...targetField(c), mode: 'NULLABLE' as const }));
  return changed || added.length ? [...fields, ...added] : undefined;
}
