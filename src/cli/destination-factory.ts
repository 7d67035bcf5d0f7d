/**
 * Creates the configured destination through its descriptor in the connector registry
 * (`connectors/registry.ts`). Each connector is imported when it is configured and not
 * before, so a Postgres user never loads (or has probed by) a cloud SDK.
 */
import { DESTINATIONS, type DestinationDeps, descriptorOf } from '../../connectors/registry.ts';
import type { DestinationConfig } from '../../schemas/config.ts';
import type { Destination } from '../destination/destination.ts';
import type { QueryRole } from '../destination/read-only-query.ts';

export async function createDestination(
  config: DestinationConfig,
  deps: DestinationDeps,
  registry = DESTINATIONS,
): Promise<Destination> {
  return (await descriptorOf(config.type, registry).load()).createDestination(config, deps);
}

/**
 * The configured destination's query role, connected and ready (`aivis query`, `import-prompts
 * --from-query`): what reads it with a user's statement once `assertReadOnlyStatement` passed it.
 */
export async function openQueryRole(
  config: DestinationConfig,
  deps: DestinationDeps,
  registry = DESTINATIONS,
): Promise<QueryRole> {
  return (await descriptorOf(config.type, registry).load()).openQueryRole(config, deps);
}
