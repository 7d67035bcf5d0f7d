/**
 * From the user's `destination:` block to the client's options, plus the connector's
 * capabilities. Credentials are `bigquery-credentials.ts`'s business.
 */
import type { BigqueryConfig } from '../../schemas/config.ts';
import type { DestinationCapabilities } from '../../src/destination/destination.ts';

/**
 * BigQuery bills and rate-limits per job (1,500 table operations per table per day), so a
 * flush is large: each flush costs one load job and one MERGE per table, plus two for state.
 */
export const BIGQUERY_CAPABILITIES: DestinationCapabilities = {
  transactional: false,
  maxRowsPerFlush: 50_000,
  maxSecondsPerFlush: 60,
};

/** How long a staging table lives if the run dies before it drops it. */
export const STAGING_TTL_MS = 24 * 60 * 60 * 1000;

/** Options for `new BigQuery(...)`; no `authClient` means Application Default Credentials. */
export interface BigqueryClientOptions {
  projectId: string;
  location: string;
  apiEndpoint?: string;
  authClient?: unknown;
}

export function clientOptions(config: BigqueryConfig, authClient?: unknown): BigqueryClientOptions {
  return {
    projectId: config.project,
    location: config.location,
    ...(config.api_endpoint ? { apiEndpoint: config.api_endpoint.replace(/\/+$/, '') } : {}),
    ...(authClient ? { authClient } : {}),
  };
}
