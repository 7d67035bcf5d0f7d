/**
 * What a command needs from the config: the API client, the destination and the state
 * store, opened in that order and closed in reverse. (The sync engine's own per-run record,
 * run id and counters included, is `run-sync.ts`'s business.)
 */
import type { AivisConfig } from '../../schemas/config.ts';
import { ApiClient } from '../client/api-client.ts';
import type { Clock } from '../client/clock.ts';
import type { Workspace } from '../config/workspaces.ts';
import type { Destination } from '../destination/destination.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { DestinationStateStore } from '../state/destination-state-store.ts';
import { FileStateStore, stateFilePath, type FileStateStoreOptions } from '../state/file-state-store.ts';
import { checkStatePath } from '../state/state-path.ts';
import { newRunId } from '../sync/run-sync.ts';
import type { StateStore } from '../state/state-store.ts';
import { createDestination } from './destination-factory.ts';

/** The opened client, destination and state store of one command, with the config they came from. */
export interface CommandResources {
  readonly config: AivisConfig;
  /** The workspace's name: its rows, state, lock and run rows are its own. */
  readonly workspace: string;
  /** The command's run id, known before the destination opens so its jobs and sessions carry it. */
  readonly runId: string;
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

/** A workspace's client: its key, and a rate limiter of its own (its budget is the workspace's). */
export function createClient(workspace: Workspace, logger: Logger, run: ClientRun = {}): ApiClient {
  const { source, apiKey } = workspace;
  return new ApiClient({
    baseUrl: source.base_url,
    apiKey,
    requestsPerMinute: source.requests_per_minute,
    timeoutMs: source.timeout_seconds * 1000,
    maxRetries: source.max_retries,
    retryBudgetMs: source.retry_budget_seconds * 1000,
    logger,
    ...(run.clock ? { clock: run.clock } : {}),
    ...(run.signal ? { signal: run.signal } : {}),
  });
}

/** `pathChecked`: `checkStatePath` already passed for this workspace's state file (see `FileStateStoreOptions`). */
export function createStateStore(
  config: AivisConfig,
  destination: Destination,
  workspace: string,
  options: FileStateStoreOptions = {},
): StateStore {
  return config.state.store === 'file'
    ? new FileStateStore(config.state.path, workspace, options)
    : new DestinationStateStore(destination, workspace);
}

/**
 * Opens the workspace's client (stopped by `run.signal`) and the config's destination, the
 * latter tagged with the run (`command`, a new run id, the workspace): BigQuery labels its
 * jobs with it, Snowflake sets its QUERY_TAG.
 */
export async function openCommandResources(
  config: AivisConfig,
  workspace: Workspace,
  command: string,
  run: ClientRun = {},
): Promise<CommandResources> {
  // An unusable state.path is a usage error before anything is opened or written.
  if (config.state.store === 'file') await checkStatePath(stateFilePath(config.state.path, workspace.name));
  const logger = createLogger();
  const client = createClient(workspace, logger, run);
  const runId = newRunId(new Date());
  let destination: Destination | undefined;
  try {
    destination = await createDestination(config.destination, {
      logger,
      run: { runId, workspace: workspace.name, command },
    });
    await destination.open();
  } catch (error) {
    await client.close();
    await destination?.close();
    throw error;
  }
  const opened = destination;
  return {
    config,
    workspace: workspace.name,
    runId,
    logger,
    client,
    destination: opened,
    // state.path was checked above: the store does not check it again.
    stateStore: createStateStore(config, opened, workspace.name, { pathChecked: true }),
    async close() {
      await opened.close();
      await client.close();
    },
  };
}
