/**
 * The logical shape of a destination table. Streams produce rows in these logical types;
 * each connector maps them to its own SQL types (`connectors/<name>/<name>-types.ts`).
 *
 * A table spec keeps its columns as a typed tuple, so the row a stream writes is inferred
 * from it (`RowOf<typeof mentionsTable>`, as drizzle infers rows from its tables): a column
 * renamed in the spec and the key a stream writes cannot drift apart without `tsc` saying so.
 * Destinations see the untyped `TableSpec` and `Row`.
 */

/**
 * Logical column types and the JS value a row carries for each (`CellTypes`):
 * - `string`: string
 * - `int64`: number (safe integer) or bigint (beyond 2^53); connectors keep it exact
 * - `float64`: number
 * - `boolean`: boolean
 * - `timestamp`: ISO-8601 UTC string ending in `Z` (e.g. `2026-01-02T03:04:05.123456Z`)
 * - `json`: JSON text (a string holding serialized JSON)
 * Any column may hold null when `nullable` is true.
 */
export interface CellTypes {
  string: string;
  int64: number | bigint;
  float64: number;
  boolean: boolean;
  timestamp: string;
  json: string;
}
export type ColumnType = keyof CellTypes;

/** The JSON types a `json` column's values may take (JSON Schema's names, null aside). */
export type JsonValueType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';

export interface ColumnSpec<
  Name extends string = string,
  Type extends ColumnType = ColumnType,
  Nullable extends boolean = boolean,
> {
  readonly name: Name;
  readonly type: Type;
  readonly nullable: Nullable;
  /**
   * What the column means, for analysts: put into the warehouse (COMMENT, BigQuery field
   * descriptions), `docs/tables.md` and `aivis dbt-sources` (docs/architecture.md#tables).
   */
  readonly description: string;
  /**
   * A `json` column whose values always take these JSON types (`_raw`: an object), so a reader
   * that types every field can type it (docs/protocols.md#records); absent: any JSON value.
   */
  readonly jsonTypes?: readonly JsonValueType[];
}

/** The names of a column list. */
export type ColumnName<Columns extends readonly ColumnSpec[]> = Columns[number]['name'];

export interface TableSpec<Columns extends readonly ColumnSpec[] = readonly ColumnSpec[]> {
  readonly name: string;
  /** What one row is and how the table is kept, for analysts (as a column's `description`). */
  readonly description: string;
  readonly columns: Columns;
  /** Upsert key. Key columns are never nullable. */
  readonly primaryKey: readonly ColumnName<Columns>[];
  /** Columns an upsert writes when it inserts a row but leaves alone when it updates one. */
  readonly insertOnly?: readonly ColumnName<Columns>[];
  /** Warehouse layout hints: a timestamp column to partition by day, columns to cluster by. */
  readonly partitionBy?: ColumnName<Columns>;
  readonly clusterBy?: readonly ColumnName<Columns>[];
}

export type CellValue = string | number | bigint | boolean | null;
export type Row = Readonly<Record<string, CellValue>>;

/** The value a row holds in one column: its type's value, or null where the column allows it. */
export type CellOf<Column extends ColumnSpec> =
  | CellTypes[Column['type']]
  | (Column['nullable'] extends false ? never : null);

/** A row with exactly these columns (every one present; null where allowed). */
export type RowOfColumns<Columns extends readonly ColumnSpec[]> = {
  readonly [Column in Columns[number] as Column['name']]: CellOf<Column>;
};

/** The row a table holds, inferred from its spec. Assignable to `Row`. */
export type RowOf<Table extends TableSpec> = RowOfColumns<Table['columns']>;

/**
 * A column with its description; nullable unless told otherwise.
 * @example column('id', 'string', false, 'The website id.') // ColumnSpec<'id', 'string', false>
 */
export function column<const Name extends string, Type extends ColumnType>(
  name: Name,
  type: Type,
  description: string,
): ColumnSpec<Name, Type, true>;
export function column<const Name extends string, Type extends ColumnType, Nullable extends boolean>(
  name: Name,
  type: Type,
  nullable: Nullable,
  description: string,
): ColumnSpec<Name, Type, Nullable>;
export function column(
  name: string,
  type: ColumnType,
  ...rest: [description: string] | [nullable: boolean, description: string]
): ColumnSpec {
  return rest.length === 1
    ? { name, type, nullable: true, description: rest[0] }
    : { name, type, nullable: rest[0], description: rest[1] };
}

/**
 * A json column whose values always take these JSON types (see `ColumnSpec.jsonTypes`).
 * @example holdingJson(['array'], column('mention_spans', 'json', false, '...'))
 */
export function holdingJson<const Column extends ColumnSpec<string, 'json'>>(
  types: readonly JsonValueType[],
  spec: Column,
): Column {
  return { ...spec, jsonTypes: types };
}

/**
 * A table spec whose columns keep their names and types, so `RowOf` can infer its rows and
 * a key, partition or cluster column that is not a column fails to compile.
 */
export function tableSpec<const Columns extends readonly ColumnSpec[]>(spec: TableSpec<Columns>): TableSpec<Columns> {
  return spec;
}
