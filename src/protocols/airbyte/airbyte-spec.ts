/**
 * The Airbyte `SPEC` (docs/protocols.md#airbyte): the JSON config's schema shaped as Airbyte's
 * setup form and its connector acceptance tests take it, and where the docs are.
 * - `additionalProperties` is `true` wherever it is set: a platform adds keys of its own, and a
 *   key removed from a later version must not make old configs invalid (aivis warns about a key
 *   it does not know and ignores it, `protocol-config.ts`);
 * - an object with no properties (a stream that takes no options) is left out: the form cannot
 *   show one, and the config may still hold it;
 * - `documentationUrl`: docs/protocols.md as published with this version of the package.
 */
import { configJsonSchema } from '../protocol-config.ts';

type Schema = { [keyword: string]: unknown };

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** docs/protocols.md inside the published package of this version (package.json `files` ships docs/). */
export function documentationUrl(version: string): string {
  return `https://unpkg.com/aivis@${version}/docs/protocols.md`;
}

export function airbyteSpec(version: string): Record<string, unknown> {
  return {
    documentationUrl: documentationUrl(version),
    connectionSpecification: formSchema(configJsonSchema()),
    supportsIncremental: true,
  };
}

/** An object with no properties to show (and no alternatives to pick from). */
const isEmptyObject = (schema: Schema) =>
  schema.type === 'object' &&
  !('oneOf' in schema) &&
  Object.keys(isSchema(schema.properties) ? schema.properties : {}).length === 0;

function formSchema(schema: Schema): Schema {
  const shaped: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'additionalProperties') shaped[keyword] = true;
    else if (keyword === 'properties' && isSchema(value))
      shaped[keyword] = Object.fromEntries(
        Object.entries(value)
          .filter(([, property]) => !(isSchema(property) && isEmptyObject(property)))
          .map(([name, property]) => [name, isSchema(property) ? formSchema(property) : property]),
      );
    else if (keyword === 'items' && isSchema(value)) shaped[keyword] = formSchema(value);
    else shaped[keyword] = value;
  }
  return shaped;
}
