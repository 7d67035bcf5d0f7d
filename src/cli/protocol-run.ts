/**
 * A protocol read as `aivis airbyte read` and `tap-aivis` run it (docs/protocols.md#how-it-works):
 * the workspace's client, with its rate budget and retries, opened for the read and closed after it.
 */
import { type ReadInput, type ReadOutcome, readStreams } from '../protocols/protocol-read.ts';
import { createClient } from './command-resources.ts';

export async function runProtocolRead(input: Omit<ReadInput, 'client'>): Promise<ReadOutcome> {
  const client = createClient(input.config.workspace, input.logger);
  try {
    return await readStreams({ ...input, client });
  } finally {
    await client.close();
  }
}
