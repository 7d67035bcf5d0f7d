/**
 * From the user's `destination:` block (its zod schema is `bigqueryConfigSchema` in
 * schemas/destinations/bigquery.ts) to the client's options, plus the connector's capabilities. Credentials
 * are `bigquery-credentials.ts`'s business.
 */
import type { BigqueryConfig } from '../../schemas/destinations/bigquery.ts';
import type { DestinationCapabilities } from '../../src/destination/destination.ts';
import type { FlushSizing } from '../descriptor.ts';

export type { BigqueryConfig } from '../../schemas/destinations/bigquery.ts';

/**
 * BigQuery bills and rate-limits per job (1,500 table operations per table per day), and each
 * flush costs one load job and one MERGE per table, plus two for state: few, large flushes.
 */
export const BIGQUERY_FLUSH_SIZING: FlushSizing = { maxRowsPerFlush: 50_000, maxSecondsPerFlush: 60 };

/** No transactions across load jobs: rows first, then state. */
export const BIGQUERY_CAPABILITIES: DestinationCapabilities = { transactional: false, ...BIGQUERY_FLUSH_SIZING };

/** How long a staging table lives if the run dies before it drops it. */
export const STAGING_TTL_MS = 24 * 60 * 60 * 1000;

/** `destination.job_timeout_seconds` when not set: a flush's MERGE into a large table takes seconds to minutes. */
export const DEFAULT_JOB_TIMEOUT_SECONDS = 600;

/** What every job of a client carries and how the client waits and retries (bigquery-client.ts). */
export interface BigqueryJobSettings {
  /** Job labels: `aivis_run_id`, `aivis_workspace`, `aivis_command` (`jobLabels`). */
  readonly labels: Readonly<Record<string, string>>;
  /** `configuration.jobTimeoutMs` of every query job; the client gives up a minute later. */
  readonly jobTimeoutMs: number;
  /** The run whose jobs these are: job ids start `aivis_<runId>_`. */
  readonly runId?: string;
  readonly now: () => Date;
  /** Waits between retries and between polls; tests pass one that returns at once. */
  readonly sleep: (ms: number) => Promise<void>;
  /** The backoff's jitter draw in [0, 1). */
  readonly random: () => number;
}

/** A run's identity (DestinationDeps.run) as BigQuery labels: lowercase, `[a-z0-9_-]`, at most 63 characters. */
export function jobLabels(
  run: { runId: string; workspace: string; command: string } | undefined,
): Record<string, string> {
  if (!run) return {};
  const value = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, '_')
      .slice(0, 63);
  return { aivis_run_id: value(run.runId), aivis_workspace: value(run.workspace), aivis_command: value(run.command) };
}

/**
 * Options for `new BigQuery(...)`; no `authClient` means Application Default Credentials. The
 * SDK's own request retries stay on: calls that are not jobs have no others
 * (docs/destinations/bigquery.md, "Retries, deadlines and labels").
 */
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
