/**
 * The tables as `aivis streams` and `aivis dbt-sources` show them (docs/served-contract.md#where-evolved-columns-show):
 * with the columns schema evolution gives them under the newest usable document kept in
 * `_aivis_contracts` for the config's workspaces, when the destination answers within
 * `KEPT_CONTRACT_DEADLINE_MS`; else the bundled contract's columns. These commands read no served
 * contract: the kept one is what the last sync was in force with.
 */
import type { SchemaEvolutionMode } from '../../schemas/config.ts';
import { newestKeptContract } from '../contract/contract-in-force.ts';
import type { Destination } from '../destination/destination.ts';
import { readRows } from '../destination/queries/read-rows.ts';
import type { TableSpec } from '../destination/table-spec.ts';
import { declaredIn } from '../evolution/evolution-plan.ts';
import { plannedEvolution } from '../evolution/evolve-tables.ts';
import type { Logger } from '../log/logger.ts';
import { contractsTable } from '../tables/index.ts';
import { abandonLingeringWork } from './lingering-work.ts';
import { withOpenDestination } from './with-destination.ts';

/** How long opening the destination and reading `_aivis_contracts` may take before the bundled columns are shown. */
export const KEPT_CONTRACT_DEADLINE_MS = 10_000;

export interface KeptContractInput {
  /** Created, not opened. */
  readonly destination: Destination;
  /** Whose kept documents count: the newest of any of them is shown. */
  readonly workspaces: readonly string[];
  readonly mode: SchemaEvolutionMode;
  /** `schema_evolution_max_columns`. */
  readonly maxColumns: number;
  readonly logger: Logger;
  readonly deadlineMs?: number;
}

/**
 * `tables` as a sync under the newest kept document would write them (each the same object
 * when nothing evolves it). An unreachable destination costs one warning naming why; a
 * destination without a usable kept document (no sync yet) shows the bundled columns silently.
 */
export async function keptContractTables<T extends TableSpec>(
  tables: readonly T[],
  input: KeptContractInput,
): Promise<T[]> {
  const rows = await keptRows(input);
  const kept = rows === undefined ? undefined : await newestKeptContract(rows, input.workspaces);
  if (kept === undefined) return [...tables];
  const evolution = plannedEvolution(tables, input.mode, declaredIn(kept.document), input.maxColumns);
  return tables.map((table) => evolution.table(table) as T);
}

/** The rows of `_aivis_contracts`, or undefined (warned) when the destination does not give them in time. */
async function keptRows(input: KeptContractInput): Promise<readonly Record<string, unknown>[] | undefined> {
  const { destination, logger } = input;
  const deadline = input.deadlineMs ?? KEPT_CONTRACT_DEADLINE_MS;
  const read = withOpenDestination(destination, (open) => readRows(open, contractsTable));
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), deadline);
  });
  const warn = (why: string) =>
    logger.warn(`showing the bundled contract's columns: ${why}`, { destination: destination.type });
  try {
    const rows = await Promise.race([read, late]);
    if (rows !== 'late') return rows;
    // Its SDK may go on connecting: the process ends once the output is written.
    read.catch(() => undefined);
    abandonLingeringWork();
    warn(`the destination did not answer within ${deadline / 1000} s`);
    return undefined;
  } catch (error) {
    warn(`cannot read _aivis_contracts: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
