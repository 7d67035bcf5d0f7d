/**
 * One protocol `read` (Airbyte) or sync (Singer): the selected streams read by the sync engine
 * into a `ProtocolSink`, then how each stream ended (docs/protocols.md#failures). A stream
 * that failed for some website (its requests failed after retries, or the server broke the
 * contract) ends incomplete with a `system_error` while the other streams and websites go on;
 * a failure that ends the whole read (a key the API refuses, the mass-removal guard, an API
 * that is not answering) fails every stream still open, typed for the platform.
 */
import { ApiError } from '../client/api-error.ts';
import { createClient } from '../cli/command-resources.ts';
import { ConfigError } from '../errors.ts';
import type { Logger } from '../log/logger.ts';
import { MassRemovalError } from '../sync/reconcile-websites.ts';
import { newRunId, runSync } from '../sync/run-sync.ts';
import type { StreamName } from '../streams/registry.ts';
import type { ProtocolConfig } from './protocol-config.ts';
import { ProtocolSink, type ProtocolWriter } from './protocol-sink.ts';
import type { ProtocolState } from './protocol-state.ts';
import type { ProtocolStream } from './protocol-streams.ts';

/** Airbyte's failure types; Singer has none, and says the message alone. */
export type FailureType = 'config_error' | 'system_error' | 'transient_error';

export interface ReadFailure {
  /** The stream it belongs to; none when the whole read failed. */
  readonly stream?: ProtocolStream;
  readonly message: string;
  readonly failureType: FailureType;
}

export interface SelectedStream {
  readonly stream: ProtocolStream;
  /** Resume from `--state` (Airbyte `incremental`); otherwise read from the start. */
  readonly incremental: boolean;
}

export interface ReadInput {
  readonly config: ProtocolConfig;
  readonly selected: readonly SelectedStream[];
  readonly state: ProtocolState;
  readonly writer: ProtocolWriter;
  readonly logger: Logger;
}

export interface ReadOutcome {
  /** Per stream: read through, or not. */
  readonly complete: ReadonlyMap<ProtocolStream, boolean>;
  readonly failures: readonly ReadFailure[];
}

export async function readStreams(input: ReadInput): Promise<ReadOutcome> {
  const { config, selected, state, writer, logger } = input;
  const runId = newRunId(new Date());
  const sink = new ProtocolSink({
    writer,
    state,
    selected: new Map(selected.map(({ stream }) => [stream.name, stream])),
    resumed: new Set(selected.filter((s) => s.incremental).map(({ stream }) => stream.source)),
    runId,
    logger,
  });
  const streams = [...new Set(selected.map(({ stream }) => stream.source))] as StreamName[];
  const client = createClient(config.workspace, logger);
  const failures: ReadFailure[] = [];
  try {
    const summary = await runSync({
      config: config.config,
      client,
      destination: sink.destination,
      stateStore: sink,
      logger,
      streams,
      allowMassRemoval: config.allowMassRemoval,
      runId,
    });
    for (const failed of summary.counters.failedWebsites)
      for (const { stream } of selected.filter((s) => s.stream.source === failed.stream))
        failures.push({ stream, message: `website ${failed.websiteId}: ${failed.error}`, failureType: 'system_error' });
  } catch (error) {
    failures.push({ message: failureMessage(error), failureType: failureType(error) });
  } finally {
    await client.close();
  }
  const whole = failures.some((f) => f.stream === undefined);
  const complete = new Map(
    selected.map(({ stream }) => [stream, !whole && !failures.some((f) => f.stream === stream)] as const),
  );
  return { complete, failures };
}

/** The message, naming the JSON config's keys where sync's names its flags and YAML keys. */
function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof MassRemovalError)) return message;
  return message
    .replace('fix source.api_key', 'fix api_key')
    .replace('run again with --allow-mass-removal', 'run again with allow_mass_removal: true in the config');
}

/** What the platform should make of a failure that ended the read. */
function failureType(error: unknown): FailureType {
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 403) return 'config_error';
    return error.workspaceWide ? 'transient_error' : 'system_error';
  }
  if (error instanceof MassRemovalError || error instanceof ConfigError) return 'config_error';
  return 'system_error';
}
