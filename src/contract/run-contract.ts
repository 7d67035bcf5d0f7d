/**
 * The contract step of a run of one workspace (docs/served-contract.md#what-is-read): read the served
 * document once, decide the document in force, say why in one warning when it is not the
 * served one, and keep a usable served document in `_aivis_contracts` (logged the first time
 * the workspace sees it).
 */
import type { ApiClient } from '../client/api-client.ts';
import type { Destination } from '../destination/destination.ts';
import { contractsTable } from '../destination/engine-tables.ts';
import { flushParts } from '../destination/flush-parts.ts';
import { readRows } from '../destination/queries/read-rows.ts';
import type { Logger } from '../log/logger.ts';
import { decideContract, type ContractInForce } from './contract-in-force.ts';
import { readServedContract } from './served-contract.ts';

export async function readContractInForce(input: {
  client: Pick<ApiClient, 'request'>;
  destination: Destination;
  workspace: string;
  runId: string;
  /** The run's start: the row's `first_seen_at`/`last_seen_at`. */
  now: string;
  logger: Logger;
  /** Keep the served document in `_aivis_contracts` (runs that write: sync, backfill); `verify` only reads. */
  record: boolean;
}): Promise<ContractInForce> {
  const { destination, workspace, logger } = input;
  const served = await readServedContract(input.client);
  // A destination that has no contracts table yet (a verify before any sync) keeps none.
  const kept = await readRows(destination, contractsTable).catch((error: unknown) => {
    if (input.record) throw error;
    return [];
  });
  const contract = await decideContract({ served, kept, workspace, runId: input.runId, now: input.now });
  if (contract.warning !== undefined) logger.warn(contract.warning, { workspace });
  if (input.record && contract.row !== undefined) {
    await destination.commit(flushParts([{ table: contractsTable, rows: [contract.row] }]));
    if (contract.firstSeen)
      logger.info('the API serves a contract this workspace has not read before; kept in _aivis_contracts', {
        workspace,
        sha256: contract.row.sha256,
        contract_changes: contract.changes.length,
      });
  }
  return contract;
}
