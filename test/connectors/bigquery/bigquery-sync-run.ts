/**
 * One `aivis sync` against the sandbox and the BigQuery stand-in, wired as the CLI wires it
 * (config schema, API client, destination, state in the destination, `runSync`), except
 * that the BigQuery client gets a ready token instead of looking for credentials. Used
 * in-process by the end-to-end test and as a child process it can kill
 * (`node --import ./test/setup/loopback-guard.ts test/connectors/bigquery/bigquery-sync-run.ts '<json>'`).
 */
import { configSchemaOf } from '../../../connectors/registry.ts';
import { bigqueryConfigSchema } from '../../../schemas/destinations/bigquery.ts';
import { createBigqueryDestination } from '../../../connectors/bigquery/index.ts';
import { createClient } from '../../../src/cli/command-resources.ts';
import { workspaceSources } from '../../../src/config/workspaces.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { DestinationStateStore } from '../../../src/state/destination-state-store.ts';
import { runSync, type RunSummary } from '../../../src/sync/run-sync.ts';
import { fakeAuthClient } from '../../stand-ins/bigquery/fake-auth.ts';

export interface SyncTarget {
  readonly sandboxUrl: string;
  readonly apiKey: string;
  readonly bigqueryUrl: string;
  readonly project: string;
  readonly dataset: string;
  /** Offset of the destination's lease clock, to play a run that starts after a crashed run's lease ran out. */
  readonly clockOffsetMs?: number;
}

export async function syncOnce(target: SyncTarget): Promise<RunSummary> {
  const config = configSchemaOf().parse({
    source: { base_url: target.sandboxUrl, api_key: target.apiKey, requests_per_minute: 6000, max_retries: 0 },
    destination: {
      type: 'bigquery',
      project: target.project,
      dataset: target.dataset,
      location: 'US',
      api_endpoint: target.bigqueryUrl,
    },
  });
  const offset = target.clockOffsetMs ?? 0;
  const destination = createBigqueryDestination(bigqueryConfigSchema.parse(config.destination), {
    logger: silentLogger,
    authClient: fakeAuthClient(),
    now: () => new Date(Date.now() + offset),
  });
  const [workspace] = workspaceSources(config);
  const client = createClient({ ...workspace!, apiKey: target.apiKey }, silentLogger);
  await destination.open();
  try {
    return await runSync({
      config,
      client,
      destination,
      stateStore: new DestinationStateStore(destination),
      logger: silentLogger,
    });
  } finally {
    await destination.close();
    await client.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await syncOnce(JSON.parse(process.argv[2]!) as SyncTarget);
}
