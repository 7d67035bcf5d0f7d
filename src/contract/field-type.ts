/**
 * The column type a declared field's JSON Schema calls for (docs/served-contract.md#drift):
 * `string`; `string` with `format: date-time` is `timestamp`; `integer` is `int64`; `number`
 * is `float64`; `boolean`; objects, arrays, unions and untyped fields are `json`. Drift names
 * type changes with these words, and schema evolution types new columns with them.
 */
import type { ColumnType } from '../destination/table-spec.ts';
import { declaredTypes, keywords, subschemas, type JsonSchema } from './json-schema.ts';

const JSON_TYPE_OF: Readonly<Record<string, ColumnType>> = {
  string: 'string',
  integer: 'int64',
  number: 'float64',
  boolean: 'boolean',
};

function typeOfValue(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** The JSON types a schema admits, null left out (its `type`, else what its `enum`/`const` hold, else its `allOf` members'). */
export function jsonTypes(schema: JsonSchema): string[] {
  const own = keywords(schema);
  const types = declaredTypes(schema);
  if (types.length > 0) return types.filter((type) => type !== 'null');
  const values = 'const' in own ? [own.const] : Array.isArray(own.enum) ? own.enum : undefined;
  if (values !== undefined) return [...new Set(values.filter((v) => v !== null).map(typeOfValue))];
  for (const member of subschemas(schema, 'allOf')) {
    const found = jsonTypes(member);
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * @param schema a field's schema without its null alternative (`DeclaredField.schema`)
 * @example fieldType({ type: 'string', format: 'date-time' }) // 'timestamp'
 * @example fieldType({ type: ['integer', 'number'] }) // 'float64'
 */
export function fieldType(schema: JsonSchema): ColumnType {
  if (subschemas(schema, 'anyOf').length > 0 || subschemas(schema, 'oneOf').length > 0) return 'json';
  const types = jsonTypes(schema);
  // An integer-or-number field is a number: float64 holds both.
  const numeric = types.length === 2 && types.includes('integer') && types.includes('number');
  if (numeric) return 'float64';
  if (types.length !== 1) return 'json';
  const [type] = types as [string];
  if (type === 'string' && keywords(schema).format === 'date-time') return 'timestamp';
  return JSON_TYPE_OF[type] ?? 'json';
}
