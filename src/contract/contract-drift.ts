/**
 * Drift: how the document in force differs from the bundled contract, per stream and field
 * (docs/served-contract.md#drift). Fields are a stream's record fields, nested ones dotted
 * (`metrics.visibility`, `providers.counts.citation_pool`), and its response meta's, prefixed
 * `meta.`; the keys a reason map may hold count as its fields. Paths come under `paths`.
 */
import { STREAM_NAMES, STREAM_TABLES, type StreamName } from '../streams/registry.ts';
import type { ContractDocument } from './contract-document.ts';
import { declaredFields, declaredMetaFields, type DeclaredField } from './declared-fields.ts';
import { fieldType } from './field-type.ts';
import { keywords, subschema, type JsonSchema } from './json-schema.ts';
import { LIST_STREAMS } from './stream-contracts.ts';

export type ChangeKind =
  | 'added'
  | 'removed'
  | 'type_changed'
  | 'enum_added'
  | 'enum_removed'
  | 'now_optional'
  | 'now_nullable'
  | 'path_added'
  | 'path_removed';

export interface ContractChange {
  /** A stream name, or `paths`. */
  readonly stream: StreamName | 'paths';
  /** A dotted field name, or a path for `path_added`/`path_removed`. */
  readonly field: string;
  readonly change: ChangeKind;
  /** What the bundled contract says (`-` for nothing). */
  readonly old: string;
  /** What the document in force says (`-` for nothing). */
  readonly new: string;
}

/** Nested objects are compared this deep; deeper they are compared as one json field. */
const MAX_FIELD_DEPTH = 6;
const NONE = '-';

/** The list envelope's paging fields: without them no list can be read to its end. */
const PAGING_FIELDS: readonly string[] = ['meta.has_more', 'meta.next_cursor'];

type Lister = (document: ContractDocument, stream: StreamName, within: readonly string[]) => DeclaredField[];

/** Every field of a stream's records (or meta), nested ones dotted, in declared order. */
function flatFields(document: ContractDocument, stream: StreamName, list: Lister, prefix: string) {
  const found = new Map<string, DeclaredField>();
  const walk = (within: readonly string[]) => {
    for (const field of list(document, stream, within)) {
      const path = [...within, field.name];
      found.set(`${prefix}${path.join('.')}`, field);
      if (path.length < MAX_FIELD_DEPTH && fieldType(field.schema) === 'json') walk(path);
    }
  };
  walk([]);
  return found;
}

function streamFields(document: ContractDocument, stream: StreamName): Map<string, DeclaredField> {
  return new Map([
    ...flatFields(document, stream, declaredFields, ''),
    ...flatFields(document, stream, declaredMetaFields, 'meta.'),
  ]);
}

/** The values an `enum` (or `const`) of a field, or of its items, allows, as JSON text. */
function enumValues(schema: JsonSchema): string[] | undefined {
  const own = keywords(schema);
  const values = Array.isArray(own.enum) ? own.enum : 'const' in own ? [own.const] : undefined;
  if (values !== undefined) return values.filter((value) => value !== null).map(enumText);
  const items = subschema(schema, 'items');
  return items === undefined ? undefined : enumValues(items);
}

const enumText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

function fieldChanges(stream: StreamName, field: string, old: DeclaredField, now: DeclaredField): ContractChange[] {
  const changes: ContractChange[] = [];
  const change = (kind: ChangeKind, before: string, after: string) =>
    changes.push({ stream, field, change: kind, old: before, new: after });
  const [oldType, newType] = [fieldType(old.schema), fieldType(now.schema)];
  if (oldType !== newType) change('type_changed', oldType, newType);
  const [oldEnum, newEnum] = [enumValues(old.schema), enumValues(now.schema)];
  if (oldEnum !== undefined) {
    // An enum the document in force drops altogether allows every value: each old one stays.
    const allowed = new Set(newEnum ?? oldEnum);
    for (const value of newEnum ?? []) if (!oldEnum.includes(value)) change('enum_added', NONE, value);
    for (const value of oldEnum) if (!allowed.has(value)) change('enum_removed', value, NONE);
  }
  if (old.required && !now.required) change('now_optional', 'required', 'optional');
  if (!old.nullable && now.nullable) change('now_nullable', 'not null', 'nullable');
  return changes;
}

/** The record fields of a stream's table key: a record without them cannot be stored. */
function keyFields(stream: StreamName, declared: ReadonlyMap<string, DeclaredField>): string[] {
  return (STREAM_TABLES[stream][0]?.primaryKey ?? []).filter((column) => declared.has(column));
}

/**
 * @param bundled the bundled contract
 * @param inForce the document in force
 * @returns every change, streams in run order, fields in the bundled contract's order then new ones
 */
export function contractDrift(bundled: ContractDocument, inForce: ContractDocument): ContractChange[] {
  const changes: ContractChange[] = [];
  for (const stream of STREAM_NAMES) {
    const [before, after] = [streamFields(bundled, stream), streamFields(inForce, stream)];
    for (const [field, old] of before) {
      const now = after.get(field);
      if (now === undefined) changes.push({ stream, field, change: 'removed', old: fieldType(old.schema), new: NONE });
      else changes.push(...fieldChanges(stream, field, old, now));
    }
    for (const [field, now] of after)
      if (!before.has(field)) changes.push({ stream, field, change: 'added', old: NONE, new: fieldType(now.schema) });
  }
  const methods = (document: ContractDocument, path: string) =>
    Object.keys(keywords(document.paths[path] as JsonSchema))
      .filter((key) => /^(?:get|put|post|delete|options|head|patch|trace)$/.test(key))
      .map((method) => method.toUpperCase())
      .join(',') || NONE;
  for (const path of Object.keys(bundled.paths))
    if (!(path in inForce.paths))
      changes.push({ stream: 'paths', field: path, change: 'path_removed', old: methods(bundled, path), new: NONE });
  for (const path of Object.keys(inForce.paths))
    if (!(path in bundled.paths))
      changes.push({ stream: 'paths', field: path, change: 'path_added', old: NONE, new: methods(inForce, path) });
  return changes;
}

/**
 * Changes aivis cannot work with: a removed key field of a stream's records, or a removed
 * paging field of a list's meta (docs/served-contract.md#drift).
 */
export function breakingChanges(bundled: ContractDocument, changes: readonly ContractChange[]): ContractChange[] {
  return changes.filter((change) => {
    if (change.change !== 'removed' || change.stream === 'paths') return false;
    const stream = change.stream;
    const keys = keyFields(stream, flatFields(bundled, stream, declaredFields, ''));
    return keys.includes(change.field) || (LIST_STREAMS.has(stream) && PAGING_FIELDS.includes(change.field));
  });
}

/** `<stream> <field>: <change> <old> -> <new>`, what `aivis check` prints. */
export function changeLine(change: ContractChange): string {
  return `${change.stream} ${change.field}: ${change.change} ${change.old} -> ${change.new}`;
}
