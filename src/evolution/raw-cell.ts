/**
 * The value an evolved column holds for a row, read from the record as the API sent it (the
 * row's `_raw`, big integers kept exact): the loader writes it for new rows, and each
 * destination's fill (`fill-sql.ts`) computes the same value from stored `_raw` for old rows
 * (docs/served-contract.md#values). A value of another JSON type than the column's is NULL,
 * never converted:
 * - string: a JSON string;
 * - timestamp: a JSON string in a UTC form the spec writes (`timestampSchema`), truncated to
 *   the microsecond when stored, like every timestamp;
 * - int64: a JSON integer written as digits, exactly, when within int64; any other number read
 *   as a double, when whole and within int64;
 * - float64: any JSON number, as a double;
 * - boolean: true or false;
 * - json: any value but null, as JSON text.
 */
import { timestampSchema } from '../../schemas/common.ts';
import type { CellValue, ColumnType } from '../destination/table-spec.ts';
import type { EvolvedColumn } from '../destination/evolved-column.ts';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const TWO_TO_63 = 2 ** 63;
const DIGITS = /^-?\d+$/;

const rawJsonText = (value: unknown): string | undefined =>
  (JSON as unknown as { isRawJSON(v: unknown): boolean }).isRawJSON(value)
    ? (value as { rawJSON: string }).rawJSON
    : undefined;

/** The value at `path`, through objects only; undefined when a step is missing. */
function at(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.hasOwn(value, key))
      return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function int64(value: unknown): number | bigint | null {
  const exact = rawJsonText(value);
  if (exact !== undefined) {
    if (!DIGITS.test(exact)) return int64(Number(exact));
    const big = BigInt(exact);
    return big >= INT64_MIN && big <= INT64_MAX ? big : null;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) >= TWO_TO_63) return null;
  return Number.isSafeInteger(value) ? value + 0 : BigInt(value);
}

/** A value as a column of `type` holds it (see above). */
export function typedCell(type: ColumnType, value: unknown): CellValue {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'timestamp':
      return timestampSchema.safeParse(value).success ? (value as string) : null;
    case 'int64':
      return int64(value);
    case 'float64': {
      const exact = rawJsonText(value);
      return exact !== undefined ? Number(exact) : typeof value === 'number' ? value : null;
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'json':
      return value === undefined || value === null ? null : JSON.stringify(value);
  }
}

/** The evolved columns' values for one row whose `_raw` is `raw`. */
export function evolvedCells(columns: readonly EvolvedColumn[], raw: unknown): Record<string, CellValue> {
  const cells: Record<string, CellValue> = {};
  for (const { column, path } of columns) cells[column.name] = typedCell(column.type, at(raw, path));
  return cells;
}
