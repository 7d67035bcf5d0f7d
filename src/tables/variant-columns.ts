/**
 * A column and its variants as one view column (docs/tables.md#type-changes): after a field's
 * type changes, its new values land in `<column>__<type>` and the old column holds only what its
 * type can (docs/served-contract.md#schema-evolution). A view shows them together under the old
 * column's name, the variant's value first, both cast to a type that holds every value, so
 * `avg(position_in_response)` over a view covers every row.
 */
import type { ColumnSpec, ColumnType } from '../destination/table-spec.ts';
import type { ViewDialect } from '../destination/view-spec.ts';
import { variantColumnName } from '../evolution/column-name.ts';
import { holds } from '../evolution/column-holds.ts';

const TYPES: readonly ColumnType[] = ['string', 'int64', 'float64', 'boolean', 'timestamp', 'json'];

/** A view column: a table column, or a column with its variants (in type order, not by when each came). */
export interface ViewColumn {
  readonly column: ColumnSpec;
  /** The table's columns it shows, variants first: what `COALESCE` reads in order. */
  readonly parts: readonly ColumnSpec[];
}

/** The type that holds every value of `a` and `b`: one of them when it holds the other, else text. */
export function holding(a: ColumnType, b: ColumnType): ColumnType {
  if (holds(a, b)) return a;
  if (holds(b, a)) return b;
  return 'string';
}

/**
 * `columns` with each variant folded into its column: the column typed to hold every value,
 * its description saying what it shows. A column without variants is as it is.
 */
export function withVariantsFolded(columns: readonly ColumnSpec[]): ViewColumn[] {
  const byName = new Map(columns.map((c) => [c.name, c]));
  const variantsOf = (c: ColumnSpec) =>
    TYPES.filter((type) => type !== c.type)
      .map((type) => byName.get(variantColumnName(c.name, type)))
      .filter((v): v is ColumnSpec => v !== undefined);
  const folded = new Set(columns.flatMap((c) => variantsOf(c).map((v) => v.name)));
  return columns
    .filter((c) => !folded.has(c.name))
    .map((c) => {
      const variants = variantsOf(c);
      if (variants.length === 0) return { column: c, parts: [c] };
      const type = variants.reduce((t, v) => holding(t, v.type), c.type);
      const names = [c, ...variants].map((v) => `\`${v.name}\``).join(' and ');
      const description = `${c.description} In this view: every value of ${names} together, as ${type} (a type that holds them all), the variant's where a row has one.`;
      return { column: { ...c, type, nullable: true, description }, parts: [...variants.toReversed(), c] };
    });
}

/** The view column's value read from the table aliased `alias`, named as the view column when folded. */
export function viewColumnValue(d: ViewDialect, alias: string, view: ViewColumn): string {
  const read = (c: ColumnSpec) => `${alias}.${d.column(c.name)}`;
  if (view.parts.length === 1) return read(view.parts[0]!);
  const type = view.column.type;
  const cast = (c: ColumnSpec) => (c.type === type ? read(c) : d.cast(read(c), type));
  return `COALESCE(${view.parts.map(cast).join(', ')}) AS ${d.column(view.column.name)}`;
}
