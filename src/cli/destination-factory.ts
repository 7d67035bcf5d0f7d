/**
 * The only place `src/` reaches a concrete destination. Each connector is imported when it
 * is configured and not before, so a Postgres user never loads (or has probed by) a cloud
 * SDK.
 */
import type { DestinationConfig } from '../../schemas/config.ts';
import type { Destination } from '../destination/destination.ts';
import type { Logger } from '../log/logger.ts';

export async function createDestination(config: DestinationConfig, deps: { logger: Logger }): Promise<Destination> {
  switch (config.type) {
    case 'postgres':
      return (await import('../../connectors/postgres/index.ts')).createPostgresDestination(config, deps);
    case 'duckdb':
      return (await import('../../connectors/duckdb/index.ts')).createDuckdbDestination(config, deps);
    case 'bigquery':
      return (await import('../../connectors/bigquery/index.ts')).createBigqueryDestination(config, deps);
    case 'snowflake':
      return (await import('../../connectors/snowflake/index.ts')).createSnowflakeDestination(config, deps);
  }
}
