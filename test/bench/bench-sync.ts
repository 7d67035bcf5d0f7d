/**
 * An in-process sync as the CLI runs it (sandbox over loopback -> ApiClient -> runSync ->
 * Postgres), with the seams a figure needs to observe it passed in rather than built in.
 */
import { configSchemaOf } from '../../connectors/registry.ts';
import type { AivisConfig, DestinationConfig } from '../../schemas/config.ts';
import type { ApiClient } from '../../src/client/api-client.ts';
import { createPostgresDestination } from '../../connectors/postgres/index.ts';
import type { Destination } from '../../src/destination/destination.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { DestinationStateStore } from '../../src/state/destination-state-store.ts';
import { runSync, type RunSummary } from '../../src/sync/run-sync.ts';

/** The sandbox to read, and where to load: a Postgres URL, or a figure's own destination config. */
export type BenchTarget = { readonly baseUrl: string; readonly apiKey: string } & (
  | { readonly databaseUrl: string }
  | { readonly destination: DestinationConfig }
);

export function benchConfig(
  target: BenchTarget,
  source: Partial<AivisConfig['source']> = {},
  streams?: AivisConfig['streams'],
): AivisConfig {
  return configSchemaOf().parse({
    source: { base_url: target.baseUrl, api_key: target.apiKey, requests_per_minute: 6000, ...source },
    destination:
      'destination' in target ? target.destination : { type: 'postgres', url: target.databaseUrl, schema: 'aivis' },
    ...(streams ? { streams } : {}),
  });
}

export async function openPostgres(databaseUrl: string): Promise<Destination> {
  const destination = createPostgresDestination(
    { type: 'postgres', url: databaseUrl, schema: 'aivis' },
    { logger: silentLogger },
  );
  await destination.open();
  return destination;
}

/** Runs one sync and fails loudly unless it succeeded: a partial run measures nothing. */
export async function syncOnce(options: {
  config: AivisConfig;
  client: ApiClient;
  destination: Destination;
  now?: () => Date;
  workspace?: string;
}): Promise<RunSummary> {
  const { destination } = options;
  const summary = await runSync({
    ...options,
    stateStore: new DestinationStateStore(destination, options.workspace),
    logger: silentLogger,
  });
  if (summary.status !== 'succeeded') {
    throw new Error(
      `bench sync ended ${summary.status}: ${JSON.stringify(summary.counters.failedWebsites.slice(0, 3))}, ${summary.counters.rejected} rejected`,
    );
  }
  return summary;
}
