/**
 * `aivis airbyte spec | check | discover | read` (docs/protocols.md#airbyte): each mode prints
 * Airbyte messages on stdout and nothing else; logs go to stderr. Bad input (a missing or
 * malformed config, catalog or state) is an error TRACE with `config_error`, then exit 1;
 * `check` answers FAILED rather than failing (exit 0).
 */
import { checkClient, probeSource } from './source-probe.ts';
import { createLogger } from '../log/logger.ts';
import { LineOutput } from '../protocols/line-output.ts';
import { readProtocolConfig } from '../protocols/protocol-config.ts';
import { inConfigTerms } from '../protocols/protocol-wording.ts';
import { airbyteSpec } from '../protocols/airbyte/airbyte-spec.ts';
import { packageVersion } from './package-version.ts';
import { ProtocolInputError } from '../protocols/protocol-input.ts';
import type { ProtocolWriter } from '../protocols/protocol-sink.ts';
import type { ProtocolState } from '../protocols/protocol-state.ts';
import { type ProtocolStream, streamColumns } from '../protocols/protocol-streams.ts';
import type { ColumnSpec } from '../destination/table-spec.ts';
import { rowJson } from '../protocols/row-json.ts';
import { airbyteCatalog, readConfiguredCatalog } from '../protocols/airbyte/airbyte-catalog.ts';
import {
  catalogLine,
  connectionStatusLine,
  errorTraceLine,
  recordLine,
  specLine,
  streamStateLine,
  streamStatusLine,
} from '../protocols/airbyte/airbyte-messages.ts';
import { readAirbyteState } from '../protocols/airbyte/airbyte-state.ts';
import { discoverEvolution, runProtocolRead } from './protocol-run.ts';

export const AIRBYTE_MODES = ['spec', 'check', 'discover', 'read'] as const;
export type AirbyteMode = (typeof AIRBYTE_MODES)[number];

export interface AirbyteArgs {
  readonly config?: string;
  readonly catalog?: string;
  readonly state?: string;
}

/** Runs one mode; returns the exit code (0, or 1 after an error TRACE). */
export async function runAirbyteMode(mode: AirbyteMode, args: AirbyteArgs, out = new LineOutput()): Promise<number> {
  try {
    switch (mode) {
      case 'spec':
        await out.write(specLine(airbyteSpec(packageVersion())));
        return 0;
      case 'check':
        await out.write(await check(args));
        return 0;
      case 'discover': {
        const config = await readProtocolConfig(args.config);
        await out.write(catalogLine(airbyteCatalog(await discoverEvolution(config, createLogger()))));
        return 0;
      }
      case 'read':
        return await read(args, out);
    }
  } catch (error) {
    if (!(error instanceof ProtocolInputError)) throw error;
    await out.write(errorTraceLine({ message: error.message, failureType: 'config_error' }, Date.now()));
    return 1;
  }
}

/** CONNECTION_STATUS: the config, then the same probe of the API as `aivis check`. */
async function check(args: AirbyteArgs): Promise<string> {
  let config: Awaited<ReturnType<typeof readProtocolConfig>>;
  try {
    config = await readProtocolConfig(args.config);
  } catch (error) {
    if (!(error instanceof ProtocolInputError)) throw error;
    return connectionStatusLine('FAILED', error.message);
  }
  const api = `API ${config.workspace.source.base_url}`;
  const client = checkClient(config.workspace, createLogger());
  try {
    return connectionStatusLine('SUCCEEDED', `${api}: ${await probeSource(client)}`);
  } catch (error) {
    return connectionStatusLine('FAILED', inConfigTerms(`${api}: ${(error as Error).message}`));
  } finally {
    await client.close();
  }
}

async function read(args: AirbyteArgs, out: LineOutput): Promise<number> {
  const config = await readProtocolConfig(args.config);
  const selected = await readConfiguredCatalog(args.catalog);
  const state = await readAirbyteState(args.state, config.workspace.source.base_url);
  const now = () => Date.now();
  for (const { stream } of selected) await out.write(streamStatusLine(stream.name, 'STARTED', now()));
  const running = new Set<ProtocolStream>();
  const columns = new Map<ProtocolStream, readonly ColumnSpec[]>();
  const writer: ProtocolWriter = {
    async begin(evolution) {
      for (const { stream } of selected) columns.set(stream, streamColumns(stream, evolution));
    },
    async records(stream, rows) {
      if (!running.has(stream)) {
        running.add(stream);
        await out.write(streamStatusLine(stream.name, 'RUNNING', now()));
      }
      const emittedAt = now();
      const kept = columns.get(stream)!;
      for (const row of rows) await out.write(recordLine(stream.name, rowJson(row, kept), emittedAt));
    },
    async states(sources: readonly string[], protocolState: ProtocolState) {
      for (const source of sources) await out.write(streamStateLine(source, protocolState.value(source)));
    },
  };
  const outcome = await runProtocolRead({ config, selected, state, writer, logger: createLogger() });
  for (const failure of outcome.failures)
    await out.write(
      errorTraceLine({ ...failure, message: inConfigTerms(failure.message), stream: failure.stream?.name }, now()),
    );
  for (const [stream, complete] of outcome.complete)
    await out.write(streamStatusLine(stream.name, complete ? 'COMPLETE' : 'INCOMPLETE', now()));
  return outcome.failures.length > 0 ? 1 : 0;
}
