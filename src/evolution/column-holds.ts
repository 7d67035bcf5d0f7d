/** Which column type keeps which values (docs/served-contract.md#schema-evolution): what decides a variant column. */
import type { ColumnType } from '../destination/table-spec.ts';

/** Whether a column of type `held` keeps every value of type `declared` (an int64 fits a float64 column, any value a json one). */
export function holds(held: ColumnType, declared: ColumnType): boolean {
  return (
    held === declared ||
    held === 'json' ||
    (held === 'float64' && declared === 'int64') ||
    (held === 'string' && declared === 'timestamp')
  );
}
