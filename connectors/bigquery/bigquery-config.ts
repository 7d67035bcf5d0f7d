/**
 * From the user's `destination:` block to the client's options, plus the connector's
 * capabilities. Credentials: `key_file` (a service-account key) or Application Default
 * Credentials (`GOOGLE_APPLICATION_CREDENTIALS`, `gcloud auth application-default login`, or
 * the metadata server of GCE/GKE/Cloud Run).
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  identifierCase: 'preserve',
};

/** How long a staging table lives if the run dies before it drops it. */
export const STAGING_TTL_MS = 24 * 60 * 60 * 1000;

/** Options for `new BigQuery(...)`; `authClient` is injected by tests and embedders. */
export interface BigqueryClientOptions {
  projectId: string;
  location: string;
  apiEndpoint?: string;
  keyFilename?: string;
  authClient?: unknown;
}

export function clientOptions(config: BigqueryConfig, authClient?: unknown): BigqueryClientOptions {
  return {
    projectId: config.project,
    location: config.location,
    ...(config.api_endpoint ? { apiEndpoint: config.api_endpoint.replace(/\/+$/, '') } : {}),
    ...(config.key_file ? { keyFilename: config.key_file } : {}),
    ...(authClient ? { authClient } : {}),
  };
}

/**
 * True when the credentials come from somewhere other than the metadata server, so
 * google-auth-library must not probe it (a probe from a laptop or CI waits on a network
 * timeout, and leaves the machine). Only ADC with nothing on disk needs the probe: that is
 * how a workload on GCE/GKE/Cloud Run finds its identity.
 */
export function credentialsAvoidMetadataServer(config: BigqueryConfig, env: NodeJS.ProcessEnv, hasAuthClient: boolean): boolean {
  if (hasAuthClient || config.key_file || env.GOOGLE_APPLICATION_CREDENTIALS) return true;
  const configDir = env.CLOUDSDK_CONFIG ?? path.join(os.homedir(), '.config', 'gcloud');
  return existsSync(path.join(configDir, 'application_default_credentials.json'));
}
