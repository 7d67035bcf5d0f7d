/**
 * The fields the document in force declares on a stream's records (docs/served-contract.md):
 * what schema evolution gives columns to and what drift compares. Objects that aivis flattens
 * (`metrics`, `counts`, ...) are reached with `within`.
 */
import type { StreamName } from '../streams/registry.ts';
import type { ContractDocument } from './contract-document.ts';
import { declaredTypes, isNullOnly, keywords, subschema, subschemas, type JsonSchema } from './json-schema.ts';
import { metaSchema, propertySchema, recordSchema } from './stream-contracts.ts';

export interface DeclaredField {
  /** The property name as the API sends it. */
  readonly name: string;
  /** Its schema without the null alternative (`anyOf: [X, {type: null}]` gives X); `{}` when untyped. */
  readonly schema: JsonSchema;
  /** Listed in the object's `required`. */
  readonly required: boolean;
  /** Null is allowed (`type: [..., 'null']`, an `anyOf` with null, OpenAPI 3.0 `nullable: true`). */
  readonly nullable: boolean;
  readonly description?: string;
}

/** A schema without its null alternative, and whether it had one. */
function withoutNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const own = keywords(schema);
  const types = declaredTypes(schema);
  if (types.includes('null')) {
    const rest = types.filter((type) => type !== 'null');
    return { schema: { ...own, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  if (own.nullable === true) {
    const { nullable: _, ...rest } = own;
    return { schema: rest, nullable: true };
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    const members = subschemas(schema, keyword);
    const nonNull = members.filter((member) => !isNullOnly(member));
    if (members.length > 0 && nonNull.length < members.length) {
      const { [keyword]: _, ...rest } = own;
      const inner = nonNull.length === 1 ? { ...keywords(nonNull[0]), ...rest } : { ...rest, [keyword]: nonNull };
      return { schema: inner, nullable: true };
    }
  }
  return { schema, nullable: false };
}

/** The object schema at `within` (property names; arrays are stepped through to their items). */
function objectAt(schema: JsonSchema | undefined, within: readonly string[]): JsonSchema | undefined {
  let node = schema;
  for (const name of within) {
    node = propertySchema(itemsOf(node), name);
    if (node === undefined) return undefined;
  }
  return itemsOf(node);
}

/** A schema with null dropped, and an array schema's items. */
function itemsOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  const { schema: value } = withoutNull(schema);
  return declaredTypes(value).includes('array') || 'items' in keywords(value) ? subschema(value, 'items') : value;
}

/** The `required` names of an object schema and of its `allOf` members. */
function requiredNames(schema: JsonSchema): Set<string> {
  const own = keywords(schema).required;
  const names = new Set(Array.isArray(own) ? own.filter((name): name is string => typeof name === 'string') : []);
  for (const member of subschemas(schema, 'allOf')) for (const name of requiredNames(member)) names.add(name);
  return names;
}

/** Property schemas of an object schema, its `allOf` members first-declared-wins, and keys a `propertyNames` enum lists. */
function propertiesOf(schema: JsonSchema): Map<string, JsonSchema> {
  const found = new Map<string, JsonSchema>();
  for (const [name, value] of Object.entries(keywords(subschema(schema, 'properties'))))
    if (typeof value === 'boolean' || (typeof value === 'object' && value !== null))
      found.set(name, value as JsonSchema);
  for (const member of subschemas(schema, 'allOf'))
    for (const [name, value] of propertiesOf(member)) if (!found.has(name)) found.set(name, value);
  // A map whose keys are listed (`unavailable_reasons`): each listed key is an optional field.
  const keys = keywords(subschema(schema, 'propertyNames')).enum;
  const values = subschema(schema, 'additionalProperties') ?? {};
  if (Array.isArray(keys))
    for (const key of keys) if (typeof key === 'string' && !found.has(key)) found.set(key, values);
  return found;
}

function fieldsOf(object: JsonSchema | undefined): DeclaredField[] {
  if (object === undefined) return [];
  const required = requiredNames(object);
  return [...propertiesOf(object)].map(([name, declared]) => {
    const { schema, nullable } = withoutNull(declared);
    const description = keywords(declared).description ?? keywords(schema).description;
    return {
      name,
      schema,
      required: required.has(name),
      nullable,
      ...(typeof description === 'string' ? { description } : {}),
    };
  });
}

/**
 * The fields of a stream's records, or of an object inside them.
 * @param within property names leading to a nested object; arrays are stepped through
 * @example declaredFields(document, 'mentions') // id, analysis_id, observed_at, ...
 * @example declaredFields(document, 'analytics', ['metrics']) // visibility, share_of_voice, ...
 * @example declaredFields(document, 'analytics', ['providers', 'counts']) // the provider entry's count keys
 */
export function declaredFields(
  document: ContractDocument,
  stream: StreamName,
  within: readonly string[] = [],
): DeclaredField[] {
  return fieldsOf(objectAt(recordSchema(document, stream), within));
}

/**
 * The fields of a stream's response `meta`, or of an object inside it.
 * @example declaredMetaFields(document, 'analytics', ['unavailable_reasons']) // the metric keys a reason can be given for
 * @example declaredMetaFields(document, 'mentions') // request_id, has_more, next_cursor, scan_upper_bound
 */
export function declaredMetaFields(
  document: ContractDocument,
  stream: StreamName,
  within: readonly string[] = [],
): DeclaredField[] {
  return fieldsOf(objectAt(metaSchema(document, stream), within));
}
