/**
 * DuckDB results in Snowflake's JSON result encoding: a `rowtype` describing each column and
 * a `rowset` of strings, as `snowflake-sdk` expects them.
 * - fixed (NUMBER): decimal text, exact; real (FLOAT): 15 significant digits (number-text.ts)
 * - boolean: "1" / "0"
 * - timestamp_tz: "<epoch seconds>.<9 fraction digits> <offset minutes + 1440>" (always UTC here)
 * - variant: JSON text as Snowflake prints it (variant-text.ts); text: as is
 * - array (a DuckDB list: `JSON[]` for Snowflake's ARRAY, sql-rewrite.ts): its elements as one
 *   JSON array, printed as a variant is (`snowflake-sdk` parses it unless asked for text)
 */
import { realText } from './number-text.ts';
import { variantText } from './variant-text.ts';
import {
  DuckDBListType,
  DuckDBListValue,
  DuckDBTimestampTZValue,
  DuckDBTypeId,
  type DuckDBResultReader,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';

/** One column of a result, as Snowflake describes it (`rowtype[]`). */
export interface RowType {
  readonly name: string;
  readonly type: string;
  readonly scale: number | null;
  readonly precision: number | null;
  readonly length: number | null;
  readonly nullable: boolean;
}

/** A result in Snowflake's JSON encoding: `rowtype` and a `rowset` of strings. */
export interface EncodedResult {
  readonly rowtype: RowType[];
  readonly rowset: (string | null)[][];
}

const INTEGER_TYPES = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UHUGEINT,
]);

function snowflakeType(type: DuckDBType): Pick<RowType, 'type' | 'scale' | 'precision'> {
  if (type.alias === 'JSON') return { type: 'variant', scale: null, precision: null };
  if (type instanceof DuckDBListType) return { type: 'array', scale: null, precision: null };
  if (INTEGER_TYPES.has(type.typeId)) return { type: 'fixed', scale: 0, precision: 38 };
  switch (type.typeId) {
    case DuckDBTypeId.DECIMAL: {
      const [precision, scale] = (/\((\d+),(\d+)\)/.exec(type.toString()) ?? []).slice(1).map(Number);
      return { type: 'fixed', scale: scale ?? 0, precision: precision ?? 38 };
    }
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return { type: 'real', scale: null, precision: null };
    case DuckDBTypeId.BOOLEAN:
      return { type: 'boolean', scale: null, precision: null };
    case DuckDBTypeId.TIMESTAMP_TZ:
      return { type: 'timestamp_tz', scale: 9, precision: 0 };
    default:
      return { type: 'text', scale: null, precision: null };
  }
}

function encodeValue(value: DuckDBValue, type: string, duckType: DuckDBType): string | null {
  if (value === null) return null;
  if (type === 'boolean') return value ? '1' : '0';
  if (type === 'real' && typeof value === 'number') return realText(value);
  if (type === 'variant') return variantText(String(value));
  if (value instanceof DuckDBListValue) return variantText(listJson(value, duckType));
  if (value instanceof DuckDBTimestampTZValue) {
    // A signed decimal number of seconds: 1969-12-31T23:59:59.5Z is "-0.500000000".
    const micros = value.micros < 0n ? -value.micros : value.micros;
    const sign = value.micros < 0n ? '-' : '';
    return `${sign}${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0')}000 1440`;
  }
  return String(value);
}

/** A list as JSON text: a `JSON[]` element is JSON already; a text is quoted; a number or boolean prints as is. */
function listJson(list: DuckDBListValue, type: DuckDBType): string {
  const json = type instanceof DuckDBListType && type.valueType.alias === 'JSON';
  const element = (value: DuckDBValue) =>
    value === null ? 'null' : json || typeof value !== 'string' ? String(value) : JSON.stringify(value);
  return `[${list.items.map(element).join(',')}]`;
}

/**
 * `sql` is the statement as the client sent it: a result column keeps a lower-case name only
 * when the statement spelled it quoted; otherwise it is upper-case, as Snowflake names it
 * (DuckDB would name `SELECT table_name` after the catalog's stored, lower-case column).
 */
export function encodeResult(result: DuckDBResultReader, sql: string): EncodedResult {
  const types = result.columnTypes();
  const rowtype = rowTypes(result.columnNames(), types, sql);
  const rowset = result.getRows().map((row) => row.map((value, i) => encodeValue(value, rowtype[i]!.type, types[i]!)));
  return { rowtype, rowset };
}

/** The `rowtype` of DuckDB columns (`encodeResult` says how `sql` decides a name's case). */
export function rowTypes(names: readonly string[], types: readonly DuckDBType[], sql: string): RowType[] {
  return names.map((name, i) => ({
    name: sql.includes(`"${name}"`) ? name : name.toUpperCase(),
    ...snowflakeType(types[i]!),
    length: null,
    nullable: true,
  }));
}

/** A result built here rather than by DuckDB: DDL status text, DML counts, SHOW output. */
export function literalResult(
  columns: readonly { name: string; type?: 'fixed' | 'text' }[],
  rows: readonly (readonly (string | null)[])[],
): EncodedResult {
  return {
    rowtype: columns.map((c) => ({
      name: c.name,
      type: c.type ?? 'text',
      scale: c.type === 'fixed' ? 0 : null,
      precision: c.type === 'fixed' ? 38 : null,
      length: null,
      nullable: false,
    })),
    rowset: rows.map((row) => [...row]),
  };
}

/** A one-row result such as DDL status text or DML counts. */
export function singleRow(columns: readonly { name: string; value: string; type?: 'fixed' | 'text' }[]): EncodedResult {
  return literalResult(columns, [columns.map((c) => c.value)]);
}
