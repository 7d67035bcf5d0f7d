#!/usr/bin/env node
/**
 * `tap-aivis`: aivis as a Singer tap, spec 0.3.0 (docs/protocols.md#singer).
 * `tap-aivis --config F [--state F] [--catalog F | --properties F] [--discover]`: SCHEMA, RECORD
 * and STATE messages on stdout, one JSON line each and nothing else; logs on stderr. Bad input
 * is one line on stderr and exit 2; a read that failed (a stream, or the whole) exits 1.
 */
import { parseArgs } from 'node:util';
import { jsonLine } from '../log/inert-text.ts';
import { createLogger } from '../log/logger.ts';
import { redact } from '../log/redact.ts';
import { LineOutput } from '../protocols/line-output.ts';
import { readProtocolConfig } from '../protocols/protocol-config.ts';
import { ProtocolInputError } from '../protocols/protocol-input.ts';
import { inConfigTerms } from '../protocols/protocol-wording.ts';
import { type ProtocolStream, recordSchema, streamColumns } from '../protocols/protocol-streams.ts';
import type { ColumnSpec } from '../destination/table-spec.ts';
import { rowJson } from '../protocols/row-json.ts';
import { readSingerCatalog, singerCatalog } from '../protocols/singer/singer-catalog.ts';
import { readSingerState } from '../protocols/singer/singer-state.ts';
import { discoverEvolution, runProtocolRead } from './protocol-run.ts';

const USAGE = 'usage: tap-aivis --config FILE [--state FILE] [--catalog FILE | --properties FILE] [--discover]';
const HELP = `${USAGE}

aivis as a Singer tap: --discover prints the catalog; otherwise SCHEMA, RECORD and STATE
messages of the streams the catalog selects (every stream without one) on stdout, logs on
stderr. --state takes back the value of the last STATE message. Config keys and streams:
docs/protocols.md in the aivis package.`;

export async function tapMain(argv: string[], out = new LineOutput()): Promise<number> {
  try {
    const { values } = parseTapArgs(argv);
    if (values.help) {
      await out.write(HELP);
      return 0;
    }
    const logger = createLogger();
    const config = await readProtocolConfig(values.config, logger);
    if (values.discover) {
      await out.write(jsonLine(singerCatalog(await discoverEvolution(config, logger))));
      return 0;
    }
    const flag = values.catalog === undefined && values.properties !== undefined ? '--properties' : '--catalog';
    const catalog = values.catalog ?? values.properties;
    const selection = await readSingerCatalog(catalog, flag);
    if (selection.length === 0) {
      logger.warn(
        `the ${flag} file ${catalog} selects no stream, so nothing is read: mark a stream selected ("selected": true in its metadata with breadcrumb []), give the catalog --discover prints as it is, or in Meltano name streams in the extractor's select`,
      );
      return 0;
    }
    const state = await readSingerState(values.state, config.workspace.source.base_url);
    const columns = new Map<ProtocolStream, readonly ColumnSpec[]>();
    const outcome = await runProtocolRead({
      config,
      selected: selection,
      state,
      logger,
      writer: {
        // SCHEMA of every selected stream before the first RECORD, with the columns the served contract adds.
        async begin(evolution) {
          for (const { stream, keeps } of selection) {
            const kept = streamColumns(stream, evolution).filter((c) => keeps(c.name));
            columns.set(stream, kept);
            const schema = recordSchema(stream, evolution) as { properties: Record<string, unknown> };
            const properties = Object.fromEntries(kept.map((c) => [c.name, schema.properties[c.name]]));
            await out.write(
              jsonLine({
                type: 'SCHEMA',
                stream: stream.name,
                schema: { ...schema, properties },
                key_properties: stream.table.primaryKey,
              }),
            );
          }
        },
        async records(stream, rows) {
          const kept = columns.get(stream)!;
          const head = `{"type":"RECORD","stream":${jsonLine(stream.name)},"record":`;
          for (const row of rows) await out.write(`${head}${rowJson(row, kept)}}`);
        },
        async states(_sources, protocolState) {
          await out.write(redact(jsonLine({ type: 'STATE', value: { bookmarks: protocolState.values() } })));
        },
      },
    });
    for (const failure of outcome.failures)
      logger.error(inConfigTerms(failure.message), { ...(failure.stream ? { stream: failure.stream.name } : {}) });
    return outcome.failures.length > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof ProtocolInputError)) throw error;
    process.stderr.write(`${redact(`tap-aivis: ${error.message}`)}\n`);
    return 2;
  }
}

function parseTapArgs(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        state: { type: 'string' },
        catalog: { type: 'string' },
        properties: { type: 'string' },
        discover: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    throw new ProtocolInputError(`${(error as Error).message}; ${USAGE}`);
  }
}

/** Runs the tap as the process's one job; anything unexpected is one line on stderr, exit 1, never a stack. */
export function run(argv: string[]): void {
  const fail = (error: unknown) => {
    process.stderr.write(`${redact(`tap-aivis: unexpected error: ${(error as Error)?.message ?? String(error)}`)}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  tapMain(argv).then((code) => {
    process.exitCode = code;
  }, fail);
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) run(process.argv.slice(2));
