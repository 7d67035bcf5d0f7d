/**
 * `aivis check`: the config parses, the API accepts each workspace's key (V2 enabled, read scope), and
 * the destination is reachable and writable, and (a warning at worst) that `metrics:` targets
 * can be written. Each line says what was proven or what to fix. Each workspace's served
 * contract is read and its drift from the bundled contract printed, one line per change
 * (docs/served-contract.md#drift); a change that removes a key or paging field fails the check.
 * A table the identity may not alter is named too: schema evolution keeps its columns.
 */
import { bundledContract } from '../../contract/bundled-contract.ts';
import { breakingChanges, changeLine, contractDrift } from '../../contract/contract-drift.ts';
import { readServedContract, SERVED_CONTRACT_PATH } from '../../contract/served-contract.ts';
import { checkClient, probeSource } from '../source-probe.ts';
import { loadConfig } from '../../config/load-config.ts';
import { viewsOver } from '../../destination/view-spec.ts';
import { ExitCode, MissingPrivilegesError } from '../../errors.ts';
import { terminalLine } from '../../log/inert-text.ts';
import { createLogger } from '../../log/logger.ts';
import { redact } from '../../log/redact.ts';
import { checkMetricsTargets } from '../../metrics/check-metrics-targets.ts';
import { STREAMS } from '../../streams/registry.ts';
import { syncTables } from '../../sync/run-sync.ts';
import { VIEWS } from '../../tables/index.ts';
import { createDestination } from '../destination-factory.ts';
import { withOpenDestination } from '../with-destination.ts';
import { defineCommand } from './cli-command.ts';

/** The tables schema evolution may add columns to (docs/served-contract.md#schema-evolution). */
const EVOLVING = new Set(STREAMS.flatMap((stream) => stream.mappings.map((mapping) => mapping.table.name)));

export const checkCommand = defineCommand({
  command: 'check',
  describe: 'Check the config, the API key and the destination',
  builder: (yargs) => yargs,
  handler: async (argv) => {
    const { config, workspaces, path } = await loadConfig(argv.config);
    const logger = createLogger({ level: 'warn' });
    // One line per check, whatever a server's error text holds.
    const print = (ok: boolean | 'warn', text: string) =>
      process.stdout.write(`${terminalLine(redact(`${ok === 'warn' ? 'warn' : ok ? 'ok  ' : 'FAIL'} ${text}`))}\n`);
    print(true, `config ${path}`);
    let failed = false;
    let badConfig = false;

    for (const workspace of workspaces) {
      const api = `API ${config.sources ? `workspace ${workspace.name} ` : ''}${workspace.source.base_url}`;
      const client = checkClient(workspace, logger);
      try {
        print(true, `${api}: ${await probeSource(client)}`);
        const served = await readServedContract(client);
        if (!served.usable) {
          print(
            'warn',
            `${api}: the served contract (GET ${SERVED_CONTRACT_PATH}) is unusable: ${served.reason}; runs use the newest usable one kept in _aivis_contracts, else the bundled contract`,
          );
        } else {
          const bundled = await bundledContract();
          const changes = contractDrift(bundled, served.document);
          const breaking = breakingChanges(bundled, changes);
          if (breaking.length > 0) failed = true;
          print(
            breaking.length > 0 ? false : changes.length > 0 ? 'warn' : true,
            changes.length === 0
              ? `${api}: the served contract says what the bundled contract says`
              : `${api}: the served contract differs from the bundled contract in ${changes.length} change${changes.length === 1 ? '' : 's'}${breaking.length > 0 ? `, ${breaking.length} of them removing what aivis cannot work without` : ''}:`,
          );
          for (const change of changes) process.stdout.write(`${terminalLine(redact(changeLine(change)))}\n`);
        }
      } catch (error) {
        failed = true;
        print(false, `${api}: ${(error as Error).message}`);
      } finally {
        await client.close();
      }
    }

    const destination = await createDestination(config.destination, {
      logger,
      requestTimeoutMs: Math.max(...workspaces.map((w) => w.source.timeout_seconds)) * 1000,
    });
    const named = `destination ${config.destination.type}${destination.location ? ` (${destination.location})` : ''}`;
    try {
      await withOpenDestination(destination, async () => {
        // Everything a sync of every configured stream writes, so a green check means sync has what it needs.
        const tables = syncTables(config);
        await destination.check({ tables, views: viewsOver(VIEWS, tables) });
        print(true, `${named}: reachable, can create and write tables`);
        for (const warning of destination.configWarnings?.() ?? []) print('warn', `${named}: ${warning}`);
      });
    } catch (error) {
      failed = true;
      // A destination block that cannot be right (a DuckDB path in a folder that is not there) is bad config.
      badConfig = (error as { exitCode?: number }).exitCode === ExitCode.Usage;
      if (error instanceof MissingPrivilegesError) {
        print(false, `${named}: ${error.summary}:`);
        for (const fix of error.fixes) process.stdout.write(`${terminalLine(redact(`  ${fix}`))}\n`);
        const frozen = config.schema_evolution === 'evolve' ? error.unalterable.filter((t) => EVOLVING.has(t)) : [];
        if (frozen.length > 0)
          print(
            'warn',
            `${named}: until then, schema evolution may not add columns to ${frozen.join(', ')}: a sync keeps their columns, and fields the served contract adds stay in _raw there`,
          );
      } else print(false, `${named}: ${(error as Error).message}`);
    }
    if (config.metrics)
      for (const target of await checkMetricsTargets(config.metrics)) print(target.ok || 'warn', target.text);
    return badConfig ? ExitCode.Usage : failed ? ExitCode.Failure : ExitCode.Success;
  },
});
