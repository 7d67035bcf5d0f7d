/**
 * The DuckDB destination (the embedded default). Importing this file loads no engine:
 * `@duckdb/node-api` is imported by `open()`.
 */
import type { DuckdbConfig } from '../../schemas/config.ts';
import type { Destination } from '../../src/destination/destination.ts';
import type { Logger } from '../../src/log/logger.ts';
import { duckdbOptions } from './duckdb-config.ts';
import { duckdbDestination } from './duckdb-destination.ts';

export function createDuckdbDestination(config: DuckdbConfig, deps: { logger: Logger }): Destination {
  deps.logger.debug('duckdb destination', { path: config.path, schema: config.schema });
  return duckdbDestination(duckdbOptions(config));
}
