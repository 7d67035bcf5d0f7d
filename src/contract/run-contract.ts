/**
 * The contract step of a run of one workspace (docs/served-contract.md#what-is-read): read the
 * served document once, decide the document in force, say why in one warning when it is not the
 * served one, and log a usable served document the first time the workspace sees it. A sync
 * keeps it in `_aivis_contracts` with its first flush (`ContractInForce.row`).
 */
import type { ApiClient } from '../client/api-client.ts';
import type { Destination } from '../destination/destination.ts';
import { contractsTable } from '../destination/engine-tables.ts';
import { readRows } from '../destination/queries/read-rows.ts';
import type { Logger } from '../log/logger.ts';
import { decideContract, type ContractInForce } from './contract-in-force.ts';
import { readServedContract } from './served-contract.ts';

export async function readContractInForce(input: {
  client: Pick<ApiClient, 'request'>;
  /** Where kept documents are read from; none in the protocol modes. */
  destination?: Destination;
  workspace: string;
  runId: string;
  /** The run's start: the row's `first_seen_at`/`last_seen_at`. */
  now: string;
  logger: Logger;
}): Promise<ContractInForce> {
  const { destination, workspace, logger } = input;
  const served = await readServedContract(input.client);
  // None before the table exists (a verify before any sync).
  const kept = destination === undefined ? [] : await readRows(destination, contractsTable);
  const contract = await decideContract({ served, kept, workspace, runId: input.runId, now: input.now });
  if (contract.warning !== undefined) logger.warn(contract.warning, { workspace });
  // Without a destination nothing is kept: every read would call its document new.
  if (contract.firstSeen && destination !== undefined)
    logger.info('the API serves a contract this workspace has not read before', {
      workspace,
      sha256: contract.row?.sha256,
      contract_changes: contract.changes.length,
    });
  return contract;
}
