/**
 * What a command needs from the config: the API client, the destination and the state
 * store, opened in that order and closed in reverse. (The sync engine's own per-run record,
 * run id and counters included, is `run-sync.ts`'s business.)
 */
import type { AivisConfig } from '../../schemas/config.ts';
import { ApiClient } from '../client/api-client.ts';
import type { Clock } from '../client/clock.ts';
import { loadConfig } from '../config/load-config.ts';
import type { Destination } from '../destination/destination.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { DestinationStateStore } from '../state/destination-state-store.ts';
import { FileStateStore } from '../state/file-state-store.ts';
import type { StateStore } from '../state/state-store.ts';
import { createDestination } from './destination-factory.ts';

/** The opened client, destination and state store of one command, with the config they came from. */
export interface CommandResources {
  readonly config: AivisConfig;
  readonly logger: Logger;
  readonly client: ApiClient;
  readonly destination: Destination;
  readonly stateStore: StateStore;
  close(): Promise<void>;
}

/** How a command runs its client: `signal` stops it (stop-signal.ts); `clock` puts the import tests' receipt polls on virtual time. */
export interface ClientRun {
  readonly signal?: AbortSignal;
  readonly clock?: Clock;
}

export function createClient(config: AivisConfig, apiKey: string, logger: Logger, run: ClientRun = {}): ApiClient {
  return new ApiClient({
    baseUrl: config.source.base_url,
    apiKey,
    requestsPerMinute: config.source.requests_per_minute,
    timeoutMs: config.source.timeout_seconds * 1000,
    maxRetries: config.source.max_retries,
    logger,
    ...(run.clock ? { clock: run.clock } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
  });
}

export function createStateStore(config: AivisConfig, destination: Destination): StateStore {
  return config.state.store === 'file' ? new FileStateStore(config.state.path) : new DestinationStateStore(destination);
}

/** Opens the client (stopped by `run.signal`) and the destination of the config at `argv.config`. */
export async function openCommandResources(argv: { config?: string }, run: ClientRun = {}): Promise<CommandResources> {
  const { config, apiKey } = await loadConfig(argv.config);
  const logger = createLogger();
  const client = createClient(config, apiKey, logger, run);
  let destination: Destination | undefined;
  try {
    destination = await createDestination(config.destination, { logger });
    await destination.open();
  } catch (error) {
    await client.close();
    await destination?.close();
    throw error;
  }
  const opened = destination;
  return {
    config,
    logger,
    client,
    destination: opened,
    stateStore: createStateStore(config, opened),
    async close() {
      await opened.close();
      await client.close();
    },
  };
}
