/**
 * What a destination is told about the columns schema evolution adds
 * (docs/served-contract.md#schema-evolution), and what it reports of the columns it has.
 */
import type { ColumnSpec, ColumnType } from './table-spec.ts';

/** A column the loader fills from the row's `_raw`: the value at `path`, typed as the column is. */
export interface EvolvedColumn {
  readonly column: ColumnSpec;
  /** Keys from the root of `_raw` to the field. */
  readonly path: readonly string[];
}

/** Columns of each existing table, by name, with their logical types (as the destination reports them). */
export type ExistingColumns = ReadonlyMap<string, ReadonlyMap<string, ColumnType>>;
