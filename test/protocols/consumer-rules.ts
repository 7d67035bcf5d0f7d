/**
 * The typing rules real consumers of aivis's protocol output apply, encoded here from their
 * public definitions (each rule cites its source), so the conformance suite can hold the tap's
 * and the source's output to them without installing those consumers. Each rule returns the
 * problems it finds, one line each naming where; none means the output conforms.
 */

type Schema = { readonly [keyword: string]: unknown };
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const types = (schema: Schema): string[] =>
  typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : [];
const properties = (schema: Schema): [string, Schema][] =>
  Object.entries(isSchema(schema.properties) ? schema.properties : {}).map(([name, p]) => [name, p as Schema]);

/** Every schema inside `schema` with its path (`properties.streams.properties.mentions`), itself first. */
function walk(schema: Schema, path = ''): [string, Schema][] {
  const found: [string, Schema][] = [[path, schema]];
  for (const [name, property] of properties(schema))
    found.push(...walk(property, `${path}${path ? '.' : ''}properties.${name}`));
  if (isSchema(schema.items)) found.push(...walk(schema.items, `${path}.items`));
  return found;
}

/**
 * pipelinewise-target-postgres (transferwise/pipelinewise-target-postgres,
 * target_postgres/db_sync.py, `flatten_schema`): a property with no `type` is read as if it were
 * `{"anyOf": [...]}` (`list(v.values())[0][0]['type']`), which crashes on any other shape; and
 * `column_type` picks the column from `type` alone. So every property must carry a `type`.
 */
export function everyPropertyTyped(schema: Schema): string[] {
  return properties(schema)
    .filter(([, property]) => types(property).length === 0)
    .map(([name]) => `${name}: no type`);
}

/**
 * pipelinewise-target-postgres `column_type` (db_sync.py): `object` or `array` in `type` makes a
 * `jsonb` column, anything else a scalar one; and a record's null loads only where `null` is in
 * the type. A JSON column (`jsonColumns`: name -> the JSON types it holds, `undefined` for any)
 * must be typed with its object or array type and null.
 */
export function jsonColumnsTyped(schema: Schema, jsonColumns: ReadonlyMap<string, readonly string[]>): string[] {
  const problems: string[] = [];
  const byName = new Map(properties(schema));
  for (const [name, held] of jsonColumns) {
    const property = byName.get(name);
    if (!property) continue;
    const typed = types(property);
    if (!typed.includes('null')) problems.push(`${name}: JSON column without null in its type`);
    for (const type of held) if (!typed.includes(type)) problems.push(`${name}: JSON column not typed ${type}`);
  }
  return problems;
}

/**
 * Airbyte connector acceptance tests (airbytehq/airbyte,
 * airbyte-integrations/bases/connector-acceptance-test/connector_acceptance_test/tests/test_core.py,
 * `TestDiscovery.test_primary_keys_exist_in_schema`; CHANGELOG 3.8.0 `test_primary_keys_data_type`),
 * and Singer targets that key their upserts by `key_properties`: each key is a property of the
 * schema, never an object or array, never null.
 */
export function keysInSchema(schema: Schema, keys: readonly string[]): string[] {
  const byName = new Map(properties(schema));
  return keys.flatMap((key) => {
    const property = byName.get(key);
    if (!property) return [`key ${key}: not a property of the schema`];
    const typed = types(property);
    if (typed.includes('object') || typed.includes('array')) return [`key ${key}: typed ${typed.join(', ')}`];
    return typed.includes('null') ? [`key ${key}: may be null`] : [];
  });
}

/**
 * Airbyte connector acceptance tests, `TestSpec.test_additional_properties_is_true` and
 * `TestDiscovery.test_additional_properties_is_true` (test_core.py): "When set,
 * additionalProperties field value must be true for backward compatibility."
 */
export function additionalPropertiesTrue(schema: Schema): string[] {
  return walk(schema)
    .filter(([, s]) => 'additionalProperties' in s && s.additionalProperties !== true)
    .map(([path, s]) => `${path || '(root)'}: additionalProperties is ${JSON.stringify(s.additionalProperties)}`);
}

/**
 * Airbyte connector acceptance tests, `TestSpec.test_object_not_empty` (test_core.py): an object
 * below the root with no properties (and no `oneOf`) "is an empty object which will not be
 * represented correctly in the UI".
 */
export function noEmptyObjects(spec: Schema): string[] {
  return walk(spec)
    .filter(([path, s]) => path !== '' && types(s).includes('object') && !('oneOf' in s) && properties(s).length === 0)
    .map(([path]) => `${path}: an empty object`);
}

/**
 * Airbyte's setup form draws each field from its `title` and `description` (Airbyte protocol,
 * `ConnectorSpecification.connectionSpecification`; the connector acceptance tests'
 * `TestSpec.test_property_type_is_not_array`: a type is one simple type, or it and null, and
 * `test_forbidden_complex_types`: no `anyOf`, `allOf`, `not`, `patternProperties`, ...).
 */
export function formFields(spec: Schema): string[] {
  const problems: string[] = [];
  for (const [path, s] of walk(spec)) {
    if (path === '' || path.endsWith('.items')) continue;
    if (typeof s.title !== 'string' || s.title === '') problems.push(`${path}: no title`);
    if (typeof s.description !== 'string' || s.description === '') problems.push(`${path}: no description`);
    const typed = types(s);
    if (typed.length > 2 || (typed.length === 2 && typed[1] !== 'null'))
      problems.push(`${path}: type ${typed.join(', ')}`);
    for (const keyword of ['anyOf', 'allOf', 'not', 'patternProperties', 'if', 'then', 'else'])
      if (keyword in s) problems.push(`${path}: ${keyword}`);
  }
  return problems;
}

/**
 * Airbyte connector acceptance tests, `TestSpec.test_secret_is_properly_marked` (test_core.py):
 * a field named like a secret that can hold one (a string, number or integer) is marked
 * `airbyte_secret`. `secretNames` are those of the connector's secrets.
 */
export function secretsMarked(spec: Schema, secretNames: readonly string[]): string[] {
  return walk(spec)
    .filter(([path]) => secretNames.includes(path.split('.').at(-1)!))
    .filter(([, s]) => s.airbyte_secret !== true)
    .map(([path]) => `${path}: a secret not marked airbyte_secret`);
}

/** Airbyte protocol `ConnectorSpecification.documentationUrl`: where the setup form links the docs. */
export function documented(spec: { documentationUrl?: unknown }): string[] {
  return typeof spec.documentationUrl === 'string' && /^https:\/\//.test(spec.documentationUrl)
    ? []
    : ['documentationUrl: missing'];
}
