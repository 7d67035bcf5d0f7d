/**
 * The JSON types an evolved `json` column's values take (docs/protocols.md#columns-the-served-contract-adds):
 * what the field's declaration admits, null aside (`type: ['string', 'integer']`, `type: 'object'`,
 * the members of an `anyOf`/`oneOf`), or none said (any JSON value) when a member or the field
 * itself declares no type. The protocol modes type the column's property with them.
 */
import { isNullOnly, subschemas, type JsonSchema } from '../contract/json-schema.ts';
import { jsonTypes } from '../contract/field-type.ts';
import type { JsonValueType } from '../destination/table-spec.ts';

const JSON_VALUE_TYPES: ReadonlySet<string> = new Set<JsonValueType>([
  'object',
  'array',
  'string',
  'number',
  'integer',
  'boolean',
]);

/** @example declaredJsonTypes({ type: ['string', 'integer'] }) // ['string', 'integer'] */
export function declaredJsonTypes(schema: JsonSchema): readonly JsonValueType[] | undefined {
  const members = [...subschemas(schema, 'anyOf'), ...subschemas(schema, 'oneOf')].filter((m) => !isNullOnly(m));
  const each = members.length > 0 ? members.map(declaredJsonTypes) : [ownTypes(schema)];
  if (each.some((types) => types === undefined)) return undefined;
  return [...new Set(each.flatMap((types) => types!))];
}

function ownTypes(schema: JsonSchema): readonly JsonValueType[] | undefined {
  const types = jsonTypes(schema).filter((type): type is JsonValueType => JSON_VALUE_TYPES.has(type));
  return types.length > 0 ? types : undefined;
}
