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
import { DEFAULT_MAX_EVOLVED_COLUMNS } from '../../schemas/config.ts';
import type { EvolvedColumn, ExistingColumns } from '../destination/evolved-column.ts';
import { withoutNul } from '../destination/sql-dialect.ts';
import type { ColumnSpec, ColumnType, JsonValueType, TableSpec } from '../destination/table-spec.ts';
import type { RecordMapping } from '../streams/record-mapping.ts';
import { STREAM_NAMES, STREAMS, type StreamName } from '../streams/registry.ts';
import { type AnyStream, streamTables } from '../streams/stream.ts';
import { evolvedColumnName, isNaturalName, isStorableName, variantColumnName } from './column-name.ts';
import type { ContractDocument } from '../contract/contract-document.ts';
import { type DeclaredField, declaredFields } from '../contract/declared-fields.ts';
import { fieldType } from '../contract/field-type.ts';
import type { JsonSchema } from '../contract/json-schema.ts';
import { holds } from './column-holds.ts';
import { movedToVariant } from './moved-to-variant.ts';
import { declaredJsonTypes } from './declared-json-types.ts';

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
  /** Fields (dotted) given no column because the table holds `maxColumns` evolved columns: they stay in `_raw`. */
  readonly overCap: readonly string[];
  /** Fields (dotted, as JSON strings) whose names cannot be a column's (`isStorableName`): they stay in `_raw`. */
  readonly unnamable: readonly string[];
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

/** A column to write from `path`: the field's own, of the type it is declared with. */
interface Wanted {
  readonly name: string;
  /** The field as a message names it: `url`, `metrics.reach`. */
  readonly field: string;
  readonly type: ColumnType;
  /** A json column: the JSON types the field is declared with (absent: any). */
  readonly jsonTypes: readonly JsonValueType[] | undefined;
  readonly path: readonly string[];
  readonly description: string;
  /** The stream writes the column itself (a mapped field or a known key): only a variant may be added. */
  readonly mapped: boolean;
}

/** The column type a declared field calls for, and the JSON types of a json one. */
const typed = (schema: JsonSchema) => ({ type: fieldType(schema), jsonTypes: declaredJsonTypes(schema) });

/** The longest column description every destination stores (BigQuery's 1,024 characters). */
const MAX_COLUMN_DESCRIPTION = 1024;
/** Room kept for what a variant column's description adds (its type twice and a column name). */
const VARIANT_NOTE = 120;
const MAX_NAMED_FIELD = 100;

const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/**
 * Why a metric the contract added is NULL on older rows, which carry no reason for it: the
 * analysis was published before the metric existed (docs/tables.md).
 */
const NEW_METRIC_NULL =
  'NULL on rows published before the metric existed (their metric_definition_versions has no entry for it), and';

/**
 * The contract's description of a field, cut so that the note after it (and a variant's) fit. No
 * catalog keeps U+0000 in a comment: U+FFFD stands in for it on every destination, so the comment reads back as set.
 * @param newMetric a key of `metrics` the stream does not know: a metric the contract added
 */
function describe(field: DeclaredField, where: string, newMetric: boolean): string {
  const nulls = newMetric ? `${NEW_METRIC_NULL} where a record lacks it` : 'NULL where a record lacks it';
  const note = `(Added at run time: \`${cut(where, MAX_NAMED_FIELD)}\` as the served contract declares it; ${nulls}.)`;
  const said = cut(field.description?.trim() ?? '', MAX_COLUMN_DESCRIPTION - VARIANT_NOTE - note.length - 1);
  return withoutNul(`${said ? `${said} ` : ''}${note}`);
}

/**
 * The columns one table's records ask for under the declared fields of `stream`'s records, and the fields whose
 * names cannot be columns. Each field gets a name no other field of the table has: natural
 * names first, then hashed ones (`evolvedColumnName`).
 */
function wantedColumns(
  stream: string,
  mapping: RecordMapping,
  declared: DeclaredRecords,
): { wanted: Wanted[]; unnamable: string[] } {
  const own = new Map(mapping.table.columns.map((c) => [c.name, c.type]));
  /** In declared order; the stream's own column named already, the others named below. */
  const found: { wanted: Omit<Wanted, 'name'>; key: string; name?: string }[] = [];
  const unnamable: string[] = [];
  const items = mapping.items ? [mapping.items] : [];
  const want = (declaredField: DeclaredField, keys: string[], mapped: boolean, newMetric = false) => {
    const field = keys.join('.');
    if (!keys.every(isStorableName)) {
      unnamable.push(JSON.stringify(field));
      return;
    }
    const wanted = {
      field,
      ...typed(declaredField.schema),
      path: [...mapping.rawPath, ...keys],
      description: describe(declaredField, field, newMetric),
      mapped,
    };
    found.push({ wanted, key: declaredField.name, ...(mapped ? { name: declaredField.name } : {}) });
  };
  for (const field of declared(stream, items)) {
    const known = mapping.keyed[field.name];
    if (known) {
      for (const key of declared(stream, [...items, field.name])) {
        const mapped = known.includes(key.name);
        want(key, [field.name, key.name], mapped, field.name === mapping.versioned && !mapped);
      }
    } else if (mapping.mapped.includes(field.name)) {
      if (own.has(field.name)) want(field, [field.name], true);
    } else want(field, [field.name], false);
  }
  const taken = new Set(own.keys());
  for (const entry of found)
    if (entry.name === undefined && isNaturalName(entry.key) && !taken.has(entry.key)) {
      entry.name = entry.key;
      taken.add(entry.key);
    }
  for (const entry of found)
    if (entry.name === undefined) {
      entry.name = evolvedColumnName(entry.key, taken);
      taken.add(entry.name);
    }
  return { wanted: found.map(({ wanted, name }) => ({ ...wanted, name: name! })), unnamable };
}

const evolvedColumn = (
  name: string,
  type: ColumnType,
  description: string,
  path: readonly string[],
  jsonTypes?: readonly JsonValueType[],
): EvolvedColumn => ({
  column: { name, type, nullable: true, description, ...(type === 'json' && jsonTypes ? { jsonTypes } : {}) },
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
 * @param maxColumns the most evolved columns a table may hold (those it has count, and are
 *   always written); a field beyond it gets none and stays in `_raw` (`overCap`)
 * @param streams the registered streams (`STREAMS`); a test registers its own
 */
export function planEvolution(
  tables: readonly TableSpec[],
  declared: DeclaredRecords,
  existing: ExistingColumns,
  maxColumns = DEFAULT_MAX_EVOLVED_COLUMNS,
  streams: readonly AnyStream[] = STREAMS,
): TableEvolution[] {
  const plans: TableEvolution[] = [];
  for (const { stream, mapping } of streamMappings(tables, streams)) {
    const own = new Map(mapping.table.columns.map((c) => [c.name, c.type] as const));
    const stored = existing.get(mapping.table.name) ?? new Map<string, ColumnType>();
    const columns = new Map<string, EvolvedColumn>();
    const overCap: string[] = [];
    let room = maxColumns - [...stored.keys()].filter((name) => !own.has(name)).length;
    /** Whether a column the table lacks may be added: the cap not reached. */
    const mayAdd = (name: string, field: string) => {
      if (stored.has(name) || room-- > 0) return true;
      overCap.push(field);
      return false;
    };
    /** The note on each column whose values of a new type move to a variant (`movedToVariant`). */
    const moved = new Map<string, string>();
    const { wanted, unnamable } = wantedColumns(stream, mapping, declared);
    for (const want of wanted) {
      const held = own.get(want.name) ?? stored.get(want.name);
      if (held === undefined) {
        if (mayAdd(want.name, want.field))
          columns.set(want.name, evolvedColumn(want.name, want.type, want.description, want.path, want.jsonTypes));
        continue;
      }
      const written = evolvedColumn(want.name, held, want.description, want.path);
      if (!want.mapped && !own.has(want.name)) columns.set(want.name, written);
      if (holds(held, want.type)) continue;
      const variant = variantColumnName(want.name, want.type);
      // The stream's own column of a changed field keeps only what its type holds (a position
      // of 2.5 is NULL in the int64 column, 2.5 in its variant): the loader writes it too.
      if (want.mapped)
        columns.set(want.name, {
          ...written,
          column: own.has(want.name) ? ownColumn(mapping, want.name) : written.column,
        });
      if (!mayAdd(variant, `${want.field} (as ${want.type})`)) continue;
      const type = stored.get(variant) ?? want.type;
      const description = `${want.description} Values of type ${want.type}: \`${want.name}\` keeps the ${held} ones.`;
      columns.set(variant, evolvedColumn(variant, type, description, want.path, want.jsonTypes));
      moved.set(want.name, movedToVariant(held, variant, want.type));
    }
    const evolved = [...columns.values()].filter((c) => !own.has(c.column.name));
    const noted = (c: ColumnSpec) => {
      const note = moved.get(c.name);
      return note
        ? { ...c, description: `${cut(c.description, MAX_COLUMN_DESCRIPTION - note.length - 1)} ${note}` }
        : c;
    };
    plans.push({
      table: { ...mapping.table, columns: [...mapping.table.columns, ...evolved.map((c) => c.column)].map(noted) },
      columns: [...columns.values()],
      // A table created in this run has no rows to fill.
      added: existing.has(mapping.table.name) ? evolved.filter((c) => !stored.has(c.column.name)) : [],
      overCap,
      unnamable,
    });
  }
  return plans;
}

/** What a view says of a column a sync added before this run's plan described it (a view made before the contract is read). */
const STORED_COLUMN_DESCRIPTION =
  'Added at run time from the served contract (docs/served-contract.md#schema-evolution); NULL where a record lacks the field.';

/**
 * `tables` with the columns the destination holds beyond the contract's (those schema evolution
 * added, by any workspace's run), in the order it holds them: what the views show. The same
 * columns for every workspace, so runs of workspaces under different contracts never redefine a
 * view back and forth. Each column is described as `described` (the run's evolved tables: the
 * tables' own comments) describes it, so a view column says what its table column says.
 */
export function tablesAsStored(
  tables: readonly TableSpec[],
  existing: ExistingColumns,
  described: readonly TableSpec[] = [],
): TableSpec[] {
  return tables.map((table) => {
    const words = new Map((described.find((t) => t.name === table.name) ?? table).columns.map((c) => [c.name, c]));
    const own = new Set(table.columns.map((c) => c.name));
    const extra = [...(existing.get(table.name) ?? [])]
      .filter(([name]) => !own.has(name))
      .map(
        ([name, type]): ColumnSpec => ({
          name,
          type,
          nullable: true,
          description: words.get(name)?.description ?? STORED_COLUMN_DESCRIPTION,
        }),
      );
    const columns = [...table.columns.map((c) => words.get(c.name) ?? c), ...extra];
    return extra.length || described.length ? { ...table, columns } : table;
  });
}
