/**
 * The views aivis keeps beside its tables for analysts (docs/architecture.md#tables), declared
 * once as data like table specs: a name, a description, the columns it shows (each described),
 * the tables it reads, and its query written over a destination's way of naming tables and
 * columns. Each connector creates them with its own DDL (`ensureViews`).
 */
import { createHash } from 'node:crypto';
import { DestinationError, ExitCode } from '../errors.ts';
import type { SqlDialect } from './sql-dialect.ts';
import type { ColumnSpec, TableSpec } from './table-spec.ts';

/**
 * What a view's query is written over: the destination's dialect (names, casts, type names,
 * literals), naming the configured schema's tables as the view must.
 */
export interface ViewDialect extends SqlDialect {
  /** A table of the configured schema, as the view's query must name it. */
  table(name: string): string;
  /** A column (or alias): the dialect's `identifier`. */
  column(name: string): string;
}

/** `dialect` naming tables by `table` in a view's query. */
export function viewDialect(dialect: SqlDialect, table: (name: string) => string): ViewDialect {
  return { ...dialect, table, column: (name) => dialect.identifier(name) };
}

export interface ViewSpec {
  readonly name: string;
  /** Ends with `VIEW_MARKER`: how a sync tells its own view from a user's object of that name. */
  readonly description: string;
  readonly columns: readonly ColumnSpec[];
  /** The columns that tell its rows apart (unique and never NULL), as a table's primary key does. */
  readonly key: readonly string[];
  /**
   * Columns that show a column and its variants as one, typed to hold both: a view created
   * before may have them in another type, which Postgres does not replace in place.
   */
  readonly retyped?: readonly string[];
  /** The tables the query reads: the view is created once they all are. */
  readonly sources: readonly TableSpec[];
  query(dialect: ViewDialect): string;
}

/**
 * The last sentence of every view's description, which the warehouse keeps as the view's
 * comment: an object of a view's name without it is not aivis's, and is never replaced.
 */
export const VIEW_MARKER = 'Kept current by aivis sync.';

/**
 * The comment a destination stores on the view: its description and a fingerprint of the
 * query it was created with, so a sync whose view is already current leaves it alone (on
 * Snowflake a replaced view would need each column's comment set again, every run).
 */
export function storedViewDescription(view: ViewSpec, query: string): string {
  return `${view.description} (definition ${createHash('sha256').update(query).digest('hex').slice(0, 12)})`;
}

/** The views whose tables are all among `tables` (a sync of some streams only creates some tables). */
export function viewsOver(views: readonly ViewSpec[], tables: readonly TableSpec[]): ViewSpec[] {
  const names = new Set(tables.map((t) => t.name));
  return views.filter((view) => view.sources.every((source) => names.has(source.name)));
}

/** What a destination finds under a view's name before it creates or replaces the view. */
export interface ExistingObject {
  readonly kind: 'table' | 'view';
  /** The object's comment (description); null when it has none. */
  readonly comment: string | null;
}

/**
 * Throws (exit 2) when `found` is an object of the view's name that aivis did not make: a
 * table, or a view without aivis's description. A sync never drops a user's object.
 */
export function assertOwnView(view: ViewSpec, found: ExistingObject | undefined, where: string): void {
  if (!found) return;
  if (found.kind === 'view' && found.comment?.includes(VIEW_MARKER)) return;
  const what =
    found.kind === 'view' ? "a view aivis did not create (its comment lacks aivis's description)" : 'a table';
  throw new DestinationError(
    `${where} is ${what}, so sync will not replace it with aivis's view ${view.name}: rename or drop your ${found.kind}, then run sync again`,
    ExitCode.Usage,
  );
}
