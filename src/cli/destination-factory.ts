/**
 * The only place `src/` reaches a concrete destination. Each connector is imported when it
 * is configured and not before, so a Postgres user never loads (or has probed by) a cloud
 * SDK.
 */
import type { DestinationConfig } from '../../schemas/config.ts';
import type { Destination, RunIdentity } from '../destination/destination.ts';
import type { QueryRole } from '../destination/read-only-query.ts';
import type { Logger } from '../log/logger.ts';

/** What every connector gets besides its config. */
export interface DestinationDeps {
  readonly logger: Logger;
  /**
   * A bound on each request to the warehouse, for `aivis check`, which must answer within
   * `source.timeout_seconds` even when the warehouse does not. Honoured by Snowflake, whose
   * driver would otherwise retry a login for minutes.
   */
  readonly requestTimeoutMs?: number;
  /** The run this destination serves, so warehouses can tag its jobs and sessions (BigQuery labels, Snowflake QUERY_TAG). */
  readonly run?: RunIdentity;
  /** A query role opened while this process's destination is open on the same DuckDB file (`import-prompts --from-table`). */
  readonly besideDestination?: boolean;
}

export async function createDestination(config: DestinationConfig, deps: DestinationDeps): Promise<Destination> {
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

/**
 * The configured destination's query role, connected and ready (`aivis query`, `import-prompts
 * --from-query`): what reads it with a user's statement once `assertReadOnlyStatement` passed it.
 */
export async function openQueryRole(config: DestinationConfig, deps: DestinationDeps): Promise<QueryRole> {
  switch (config.type) {
    case 'postgres':
      return (await import('../../connectors/postgres/index.ts')).openPostgresQuery(config, deps);
    case 'duckdb':
      return (await import('../../connectors/duckdb/index.ts')).openDuckdbQuery(config, deps.besideDestination);
    case 'bigquery':
      return (await import('../../connectors/bigquery/index.ts')).openBigqueryQuery(config, deps);
    case 'snowflake':
      return (await import('../../connectors/snowflake/index.ts')).openSnowflakeQuery(config, deps);
  }
}
