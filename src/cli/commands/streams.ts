/**
 * `aivis streams`: each stream, the tables it writes, and their DDL for the configured
 * destination, with the columns the newest kept served contract adds when the destination
 * answers in time (docs/served-contract.md#where-evolved-columns-show).
 */
import { loadConfig } from '../../config/load-config.ts';
import { ExitCode } from '../../errors.ts';
import { createLogger } from '../../log/logger.ts';
import { STREAM_NAMES, STREAM_TABLES } from '../../streams/registry.ts';
import { selectedStreams } from '../../sync/run-sync.ts';
import { ENGINE_TABLES, VIEWS, viewsFor } from '../../tables/index.ts';
import { createDestination } from '../destination-factory.ts';
import { keptContractTables } from '../kept-contract-tables.ts';
import { defineCommand } from './cli-command.ts';

export const streamsCommand = defineCommand({
  command: 'streams',
  describe: 'List the streams, their tables, the views and the DDL for the configured destination',
  builder: (yargs) => yargs,
  handler: async (argv) => {
    // No API call: the API key is not needed, so not read.
    const { config, workspaces } = await loadConfig(argv.config, process.env, createLogger(), 'none');
    const destination = await createDestination(config.destination, { logger: createLogger({ level: 'warn' }) });
    const evolved = await keptContractTables(
      STREAM_NAMES.flatMap((name) => STREAM_TABLES[name]),
      {
        destination,
        workspaces: workspaces.map((w) => w.name),
        mode: config.schema_evolution,
        maxColumns: config.schema_evolution_max_columns,
        logger: createLogger(),
      },
    );
    const shown = new Map(evolved.map((table) => [table.name, table]));
    const enabled = new Set(selectedStreams(config));
    const out: string[] = [];
    for (const name of STREAM_NAMES) {
      const tables = STREAM_TABLES[name].map((table) => shown.get(table.name) ?? table);
      out.push(
        `-- stream ${name} (${enabled.has(name) ? 'enabled' : 'disabled in config'}): ${tables.map((t) => t.name).join(', ')}`,
      );
      out.push(...destination.describeDdl(tables).map(statement), '');
    }
    out.push('-- engine tables', ...destination.describeDdl(ENGINE_TABLES).map(statement), '');
    out.push(
      `-- views for analysts (created by sync): ${VIEWS.map((v) => v.name).join(', ')}`,
      ...destination.describeViewDdl(viewsFor(evolved)).map(statement),
    );
    process.stdout.write(`${out.join('\n')}\n`);
    return ExitCode.Success;
  },
});

/** One DDL statement ended by one semicolon, whether the connector's text ends with one or not. */
const statement = (sql: string) => `${sql.trimEnd().replace(/;$/, '')};`;
