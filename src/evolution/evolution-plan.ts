/**
 * Which columns the document in force adds to each table (docs/served-contract.md#schema-evolution): a pure
 * function of the declared records, the tables' mappings (each stream declares one per table it
 * writes: `mappings`, `src/streams/record-mapping.ts`) and the columns the destination has.
 *
 * - A declared field the stream does not map becomes a column named by `evolvedColumnName`,
 *   typed by `fieldType`, described by its `description`.
 * - A new key of a keyed object (`metrics`, `counts`) becomes a column of each table whose
 *   object declares it.
 * - A field or key whose column exists with a type that cannot hold the declared one without
 *   loss gets a variant column `<column>__<type>`; the old column is kept and still written
 *   with what it can hold.
 * Every evolved column is nullable whatever the declaration says: a record the bundled contract
 * allows may lack the field, and rows of other workspaces share the table.
 */
import type { EvolvedColumn, ExistingColumns } from '../destination/evolved-column.ts';
import type { ColumnSpec, ColumnType, TableSpec } from '../destination/table-spec.ts';
import type { RecordMapping } from '../streams/record-mapping.ts';
import { STREAM_NAMES, STREAMS, type StreamName } from '../streams/registry.ts';
import { type AnyStream, streamTables } from '../streams/stream.ts';
import { evolvedColumnName, variantColumnName } from './column-name.ts';
import type { ContractDocument } from '../contract/contract-document.ts';
import { type DeclaredField, declaredFields } from '../contract/declared-fields.ts';
import { fieldType } from '../contract/field-type.ts';

export type { EvolvedColumn, ExistingColumns } from '../destination/evolved-column.ts';

export interface TableEvolution {
  /** The table with its evolved columns after the contract's. */
  readonly table: TableSpec;
  /**
   * Every column the loader writes from `_raw`: the evolved ones, and the stream's own column of
   * a field whose declared type changed (it keeps only what its type holds).
   */
  readonly columns: readonly EvolvedColumn[];
  /** Those the destination lacks: added, then filled from `_raw` for the rows already there. */
  readonly added: readonly EvolvedColumn[];
}

/**
 * What the document in force declares on a stream's records (a listing's or feed's item, a
 * snapshot's `data`), or on an object inside them reached through `within`: `declaredFields`
 * of `src/contract/` over that document.
 */
export type DeclaredRecords = (stream: string, within: readonly string[]) => readonly DeclaredField[];

const isStreamName = (name: string): name is StreamName => (STREAM_NAMES as readonly string[]).includes(name);

/** What `document` declares, as the plan reads it: nothing for a stream the registry does not list. */
export const declaredIn =
  (document: ContractDocument): DeclaredRecords =>
  (stream, within) =>
    isStreamName(stream) ? declaredFields(document, stream, within) : [];

/** Whether a column of type `held` keeps every value of type `declared` (an int64 fits a float64 column, any value a json one). */
export function holds(held: ColumnType, declared: ColumnType): boolean {
  return (
    held === declared ||
    held === 'json' ||
    (held === 'float64' && declared === 'int64') ||
    (held === 'string' && declared === 'timestamp')
  );
}

/** A column to write from `path`: the field's own, of the type it is declared with. */
interface Wanted {
  readonly name: string;
  readonly type: ColumnType;
  readonly path: readonly string[];
  readonly description: string;
  /** The stream writes the column itself (a mapped field or a known key): only a variant may be added. */
  readonly mapped: boolean;
}

function describe(field: DeclaredField, where: string): string {
  const said = field.description?.trim();
  return `${said ? `${said} ` : ''}(Added at run time: \`${where}\` as the served contract declares it; NULL where a record lacks it.)`;
}

/** The columns one table's records ask for under the declared fields of `stream`'s records. */
function wantedColumns(stream: string, mapping: RecordMapping, declared: DeclaredRecords): Wanted[] {
  const own = new Map(mapping.table.columns.map((c) => [c.name, c.type]));
  const taken = new Set(own.keys());
  const wanted: Wanted[] = [];
  const at = (...keys: string[]) => [...mapping.rawPath, ...keys];
  const items = mapping.items ? [mapping.items] : [];
  for (const field of declared(stream, items)) {
    const known = mapping.keyed[field.name];
    if (known) {
      for (const key of declared(stream, [...items, field.name])) {
        const mapped = known.includes(key.name);
        wanted.push({
          name: mapped ? key.name : evolvedColumnName(key.name, taken),
          type: fieldType(key.schema),
          path: at(field.name, key.name),
          description: describe(key, `${field.name}.${key.name}`),
          mapped,
        });
      }
    } else if (mapping.mapped.includes(field.name)) {
      if (own.has(field.name))
        wanted.push({
          name: field.name,
          type: fieldType(field.schema),
          path: at(field.name),
          description: describe(field, field.name),
          mapped: true,
        });
    } else {
      wanted.push({
        name: evolvedColumnName(field.name, taken),
        type: fieldType(field.schema),
        path: at(field.name),
        description: describe(field, field.name),
        mapped: false,
      });
    }
  }
  return wanted;
}

const evolvedColumn = (name: string, type: ColumnType, description: string, path: readonly string[]) => ({
  column: { name, type, nullable: true, description },
  path,
});

const ownColumn = (mapping: RecordMapping, name: string) => mapping.table.columns.find((c) => c.name === name)!;

/**
 * Each of `tables` a stream writes with the record mapping its stream declares, in registry
 * order; tables no stream writes (the engine's, the prompt import's) hold no records and are
 * not evolved.
 * @throws Error when a stream writes one of `tables` without declaring its mapping: its new
 *   fields would silently stay in `_raw` (docs/architecture.md#adding-a-stream)
 */
export function streamMappings(
  tables: readonly TableSpec[],
  streams: readonly AnyStream[] = STREAMS,
): { readonly stream: string; readonly mapping: RecordMapping }[] {
  const wanted = new Set(tables.map((table) => table.name));
  return streams.flatMap((stream) =>
    streamTables(stream)
      .filter((table) => wanted.has(table.name))
      .map((table) => {
        const mapping = stream.mappings.find((m) => m.table.name === table.name);
        if (mapping === undefined)
          throw new Error(
            `stream ${stream.name} writes table ${table.name} but declares no record mapping for it in its mappings (docs/architecture.md#adding-a-stream)`,
          );
        return { stream: stream.name, mapping };
      }),
  );
}

/**
 * The evolution of each of `tables` a stream writes, under the declared records.
 * @param streams the registered streams (`STREAMS`); a test registers its own
 */
export function planEvolution(
  tables: readonly TableSpec[],
  declared: DeclaredRecords,
  existing: ExistingColumns,
  streams: readonly AnyStream[] = STREAMS,
): TableEvolution[] {
  const plans: TableEvolution[] = [];
  for (const { stream, mapping } of streamMappings(tables, streams)) {
    const own = new Map(mapping.table.columns.map((c) => [c.name, c.type] as const));
    const stored = existing.get(mapping.table.name) ?? new Map<string, ColumnType>();
    const columns = new Map<string, EvolvedColumn>();
    for (const want of wantedColumns(stream, mapping, declared)) {
      const held = own.get(want.name) ?? stored.get(want.name);
      if (held === undefined) {
        columns.set(want.name, evolvedColumn(want.name, want.type, want.description, want.path));
        continue;
      }
      const written = evolvedColumn(want.name, held, want.description, want.path);
      if (!want.mapped && !own.has(want.name)) columns.set(want.name, written);
      if (holds(held, want.type)) continue;
      // The stream's own column of a changed field keeps only what its type holds (a position
      // of 2.5 is NULL in the int64 column, 2.5 in its variant): the loader writes it too.
      if (want.mapped)
        columns.set(want.name, {
          ...written,
          column: own.has(want.name) ? ownColumn(mapping, want.name) : written.column,
        });
      const variant = variantColumnName(want.name, want.type);
      const type = stored.get(variant) ?? want.type;
      const description = `${want.description} Values of type ${want.type}: \`${want.name}\` keeps the ${held} ones.`;
      columns.set(variant, evolvedColumn(variant, type, description, want.path));
    }
    const evolved = [...columns.values()].filter((c) => !own.has(c.column.name));
    plans.push({
      table: { ...mapping.table, columns: [...mapping.table.columns, ...evolved.map((c) => c.column)] },
      columns: [...columns.values()],
      // A table created in this run has no rows to fill.
      added: existing.has(mapping.table.name) ? evolved.filter((c) => !stored.has(c.column.name)) : [],
    });
  }
  return plans;
}

/** What a view says of a column a sync added (its table's own column carries the contract's words). */
const STORED_COLUMN_DESCRIPTION =
  'Added at run time from the served contract (docs/served-contract.md#schema-evolution); NULL where a record lacks the field.';

/**
 * `tables` with the columns the destination holds beyond the contract's (those schema evolution
 * added, by any workspace's run), in the order it holds them: what the views show. The same for
 * every workspace, so runs of workspaces under different contracts never redefine a view back
 * and forth.
 */
export function tablesAsStored(tables: readonly TableSpec[], existing: ExistingColumns): TableSpec[] {
  return tables.map((table) => {
    const own = new Set(table.columns.map((c) => c.name));
    const extra = [...(existing.get(table.name) ?? [])]
      .filter(([name]) => !own.has(name))
      .map(([name, type]): ColumnSpec => ({ name, type, nullable: true, description: STORED_COLUMN_DESCRIPTION }));
    return extra.length ? { ...table, columns: [...table.columns, ...extra] } : table;
  });
}
