/**
 * JSON Schema as it comes out of a dereferenced contract (docs/served-contract.md): plain JSON,
 * a finite tree, every `$ref` inside the document replaced by what it points to. An object or a
 * boolean (`true` accepts anything, `false` nothing).
 */
export type JsonSchema = { readonly [keyword: string]: unknown } | boolean;

/** The schema's keywords, or none for a boolean schema. */
export function keywords(schema: JsonSchema | undefined): { readonly [keyword: string]: unknown } {
  return typeof schema === 'object' && schema !== null ? schema : {};
}

/** A keyword whose value is a schema. */
export function subschema(schema: JsonSchema | undefined, keyword: string): JsonSchema | undefined {
  const value = keywords(schema)[keyword];
  return typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value))
    ? (value as JsonSchema)
    : undefined;
}

/** A keyword whose value is a list of schemas (`anyOf`, `oneOf`, `allOf`). */
export function subschemas(schema: JsonSchema | undefined, keyword: string): JsonSchema[] {
  const value = keywords(schema)[keyword];
  return Array.isArray(value)
    ? value.filter(
        (item): item is JsonSchema => typeof item === 'boolean' || (typeof item === 'object' && item !== null),
      )
    : [];
}

/** The `type` keyword as a list (`"string"` and `["string", "null"]` alike); empty when absent. */
export function declaredTypes(schema: JsonSchema | undefined): string[] {
  const type = keywords(schema).type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

/** Whether a schema accepts only `null` (`{ type: 'null' }`, `{ const: null }`, `{ enum: [null] }`). */
export function isNullOnly(schema: JsonSchema): boolean {
  const { const: constant, enum: values } = keywords(schema);
  const types = declaredTypes(schema);
  return (
    (types.length === 1 && types[0] === 'null') ||
    ('const' in keywords(schema) && constant === null) ||
    (Array.isArray(values) && values.length > 0 && values.every((value) => value === null))
  );
}
