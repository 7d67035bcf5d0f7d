/**
 * What the document in force declares about one field of a record (docs/schema-evolution.md),
 * in the shape the served-contract reader gives it (`src/contract/`): its dereferenced JSON
 * Schema, whether the record must carry it and whether it may be null. Only the schema's
 * structure is read here, never a component name.
 */
import type { ColumnType } from '../destination/table-spec.ts';

/** A dereferenced JSON Schema node (OpenAPI 3.0 or 3.1 flavour); anything else reads as untyped. */
export type JsonSchema = boolean | { readonly [keyword: string]: unknown };

export interface DeclaredField {
  readonly name: string;
  readonly schema: JsonSchema;
  readonly required: boolean;
  readonly nullable: boolean;
  readonly description?: string;
}

/** The non-null JSON types a schema allows, or undefined when it does not say (untyped, `$ref` left outside). */
function declaredTypes(schema: JsonSchema): string[] | undefined {
  if (typeof schema !== 'object') return undefined;
  const { type, anyOf, oneOf, enum: values } = schema;
  if (typeof type === 'string') return type === 'null' ? [] : [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string' && t !== 'null');
  const branches = (Array.isArray(anyOf) ? anyOf : Array.isArray(oneOf) ? oneOf : undefined) as JsonSchema[] | undefined;
  if (branches) {
    const types = branches.map(declaredTypes);
    return types.some((t) => t === undefined) ? undefined : [...new Set(types.flat() as string[])];
  }
  if (Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'string')) return ['string'];
  return undefined;
}

/** The one non-null branch of a nullable union, for its `format`. */
function soleBranch(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object') return schema;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  const typed = branches?.filter((b) => !(typeof b === 'object' && b.type === 'null'));
  return typed?.length === 1 ? soleBranch(typed[0]!) : schema;
}

/**
 * The logical column type of a declared field: `string` (with `format: date-time`: timestamp),
 * `integer` int64, `number` float64, `boolean`; objects, arrays, unions and untyped fields json.
 * `integer` beside `number` is a number.
 */
export function logicalType(schema: JsonSchema): ColumnType {
  const types = declaredTypes(schema);
  if (!types || types.length === 0) return 'json';
  const kinds = new Set(types.map((t) => (t === 'integer' && types.includes('number') ? 'number' : t)));
  if (kinds.size !== 1) return 'json';
  switch ([...kinds][0]) {
    case 'string':
      return (soleBranch(schema) as { format?: unknown }).format === 'date-time' ? 'timestamp' : 'string';
    case 'integer':
      return 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'boolean';
    default:
      return 'json';
  }
}

/** The fields an object schema declares (its `properties`, `required`), for `metrics`, `counts` and array items. */
export function declaredProperties(schema: JsonSchema | undefined): DeclaredField[] {
  const node = schema === undefined ? undefined : soleBranch(schema);
  if (typeof node !== 'object') return [];
  const properties = node.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  const required = new Set(Array.isArray(node.required) ? (node.required as unknown[]) : []);
  return Object.entries(properties as Record<string, JsonSchema>).map(([name, child]) => ({
    name,
    schema: child,
    required: required.has(name),
    nullable: isNullable(child),
    ...(typeof child === 'object' && typeof child.description === 'string' ? { description: child.description } : {}),
  }));
}

/** The items schema of an array field (`providers`, `competitors`). */
export function itemsOf(schema: JsonSchema | undefined): JsonSchema | undefined {
  const node = schema === undefined ? undefined : soleBranch(schema);
  return typeof node === 'object' ? (node.items as JsonSchema | undefined) : undefined;
}

function isNullable(schema: JsonSchema): boolean {
  if (typeof schema !== 'object') return schema;
  if (schema.nullable === true) return true;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return branches?.some(isNullable) ?? false;
}
