/**
 * A protocol read or discover as `aivis airbyte` and `tap-aivis` run it (docs/protocols.md#how-it-works):
 * the workspace's client, with its rate budget and retries, opened for the read and closed after it.
 */
import type { ApiClient } from '../client/api-client.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import type { Logger } from '../log/logger.ts';
import type { ProtocolConfig } from '../protocols/protocol-config.ts';
import { readProtocolContract } from '../protocols/protocol-contract.ts';
import { type ReadInput, type ReadOutcome, readStreams } from '../protocols/protocol-read.ts';
import { newRunId } from '../sync/run-sync.ts';
import { createClient } from './command-resources.ts';

async function withClient<T>(
  config: ProtocolConfig,
  logger: Logger,
  use: (client: ApiClient) => Promise<T>,
): Promise<T> {
  const client = createClient(config.workspace, logger);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

export function runProtocolRead(input: Omit<ReadInput, 'client'>): Promise<ReadOutcome> {
  return withClient(input.config, input.logger, (client) => readStreams({ ...input, client }));
}

/** What a catalog shows: the columns schema evolution gives the streams under the served contract (one request). */
export function discoverEvolution(config: ProtocolConfig, logger: Logger): Promise<RunEvolution> {
  return withClient(config, logger, async (client) => {
    const now = new Date();
    const contract = await readProtocolContract({
      client,
      config,
      runId: newRunId(now),
      now: now.toISOString(),
      logger,
    });
    return contract.evolution;
  });
}
