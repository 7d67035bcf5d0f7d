/**
 * `aivis dbt-sources`: prints a dbt property file (`version: 2`, `sources:`) for the configured
 * destination, to save as `models/sources.yml`: the tables and views a sync of this config
 * writes, with their descriptions, key tests and feed freshness (`src/dbt/dbt-sources.ts`).
 * No API call; the destination is read only for the columns the newest kept served contract
 * adds, within a deadline (docs/served-contract.md#where-evolved-columns-show).
 */
import { stringify } from 'yaml';
import { descriptorOf } from '../../../connectors/registry.ts';
import { loadConfig } from '../../config/load-config.ts';
import { dbtSources } from '../../dbt/dbt-sources.ts';
import { viewsOver } from '../../destination/view-spec.ts';
import { ExitCode } from '../../errors.ts';
import { createLogger } from '../../log/logger.ts';
import { syncTables } from '../../sync/run-sync.ts';
import { viewsFor } from '../../tables/index.ts';
import { createDestination } from '../destination-factory.ts';
import { parseWorkspaceFlags, selectOneWorkspace } from '../workspace-selection.ts';
import { keptContractTables } from '../kept-contract-tables.ts';
import { defineCommand } from './cli-command.ts';

export const dbtSourcesCommand = defineCommand({
  command: 'dbt-sources',
  describe: 'Print a dbt sources file (models/sources.yml) for the configured destination',
  builder: (yargs) =>
    yargs.option('workspace', {
      type: 'string',
      describe: "Freshness from this workspace's completeness only (default: every workspace's)",
    }),
  handler: async (argv) => {
    const selection = parseWorkspaceFlags({ workspace: argv.workspace });
    // No API call: the API key is not needed, so not read.
    const loaded = await loadConfig(argv.config, process.env, createLogger(), 'none');
    const workspace =
      argv.workspace === undefined ? undefined : selectOneWorkspace(loaded.workspaces, selection, 'dbt-sources').name;
    const { config } = loaded;
    const destination = await createDestination(config.destination, { logger: createLogger({ level: 'warn' }) });
    const tables = await keptContractTables(syncTables(config), {
      destination,
      workspaces: workspace === undefined ? loaded.workspaces.map((w) => w.name) : [workspace],
      mode: config.schema_evolution,
      maxColumns: config.schema_evolution_max_columns,
      logger: createLogger(),
    });
    const file = dbtSources({
      dialect: descriptorOf(config.destination.type).dialect,
      namespace: destination.namespace,
      tables,
      views: viewsOver(viewsFor(tables), tables),
      ...(workspace !== undefined ? { workspace } : {}),
    });
    process.stdout.write(
      `# dbt sources for aivis (aivis dbt-sources); save as models/sources.yml\n${stringify(file, { lineWidth: 0 })}`,
    );
    return ExitCode.Success;
  },
});
