/**
 * The Postgres destination. Importing this file loads no driver: `pg` and `pg-copy-streams`
 * are imported by `open()`.
 */
import type { PostgresConfig } from '../../schemas/config.ts';
import type { Destination } from '../../src/destination/destination.ts';
import type { Logger } from '../../src/log/logger.ts';
import { postgresOptions } from './postgres-config.ts';
import { postgresDestination } from './postgres-destination.ts';

export function createPostgresDestination(config: PostgresConfig, deps: { logger: Logger }): Destination {
  return postgresDestination(postgresOptions(config), deps.logger);
}
