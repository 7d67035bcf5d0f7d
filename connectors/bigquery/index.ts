/** The BigQuery destination (docs/architecture.md#destinations): load jobs into expiring staging tables, then MERGE. */
import type { BigqueryConfig } from '../../schemas/config.ts';
import type { Destination } from '../../src/destination/destination.ts';
import { BigqueryDestination, type BigqueryDestinationDeps } from './bigquery-destination.ts';

export type { BigqueryDestinationDeps } from './bigquery-destination.ts';

export function createBigqueryDestination(config: BigqueryConfig, deps: BigqueryDestinationDeps): Destination {
  return new BigqueryDestination(config, deps);
}
