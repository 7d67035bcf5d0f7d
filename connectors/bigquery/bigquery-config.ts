/**
 * From the user's `destination:` block (its zod schema is `bigqueryConfigSchema` in
 * schemas/config.ts) to the client's options, plus the connector's capabilities. Credentials
 * are `bigquery-credentials.ts`'s business.
 */
import type { BigqueryConfig } from '../../schemas/config.ts';
import type { DestinationCapabilities } from '../../src/destination/destination.ts';
import { FLUSH_SIZING } from '../../src/destination/flush-sizing.ts';

export type { BigqueryConfig } from '../../schemas/config.ts';

/** No transactions across load jobs: rows first, then state. Large flushes (flush-sizing.ts says why). */
export const BIGQUERY_CAPABILITIES: DestinationCapabilities = { transactional: false, ...FLUSH_SIZING.bigquery };

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
