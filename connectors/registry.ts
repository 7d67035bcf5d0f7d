/**
 * Every destination aivis writes to, once (docs/architecture.md#adding-a-destination). The
 * only module of `connectors/` that `src/` imports: the config schema, secret and file paths,
 * flush sizing, type names, lineage names and the connectors themselves all come from here.
 * Importing it loads no SDK.
 */
import { configSchemaFor, type ConfigSchema } from '../schemas/config.ts';
import { bigqueryDestination } from './bigquery/descriptor.ts';
import type { DestinationDescriptor } from './descriptor.ts';
import { duckdbDestination } from './duckdb/descriptor.ts';
import { postgresDestination } from './postgres/descriptor.ts';
import { snowflakeDestination } from './snowflake/descriptor.ts';

export type { DestinationDeps } from './descriptor.ts';

export interface DestinationRegistry {
  /** In the order the config's JSON Schema and docs/tables.md list them. */
  readonly destinations: readonly DestinationDescriptor[];
  /** The `type` a config without a `destination:` block gets, with that destination's defaults. */
  readonly defaultType: string;
}

export const DESTINATIONS: DestinationRegistry = {
  destinations: [postgresDestination, duckdbDestination, bigqueryDestination, snowflakeDestination],
  defaultType: 'duckdb',
};

/** The descriptor of `type`; the config schema admits no other type, so none is missing. */
export function descriptorOf(type: string, registry: DestinationRegistry = DESTINATIONS): DestinationDescriptor {
  const descriptor = registry.destinations.find((d) => d.type === type);
  if (!descriptor) throw new Error(`no destination of type ${type} is registered`);
  return descriptor;
}

const schemas = new WeakMap<DestinationRegistry, ConfigSchema>();

/** The config schema that admits the registry's destinations. */
export function configSchemaOf(registry: DestinationRegistry = DESTINATIONS): ConfigSchema {
  let schema = schemas.get(registry);
  if (!schema) {
    schema = configSchemaFor(
      registry.destinations.map((d) => d.configSchema),
      registry.defaultType,
    );
    schemas.set(registry, schema);
  }
  return schema;
}
