/**
 * The served contract as the protocol modes use it (docs/protocols.md#columns-the-served-contract-adds): read once per
 * `discover` or `read` through the workspace's client, as `sync` reads it; records are valid
 * under it, and the columns schema evolution would give the tables (`schema_evolution` of the
 * JSON config) are the streams' columns, in the catalogs and in every record. There is no
 * destination: nothing is kept, added or filled.
 */
import type { ApiClient } from '../client/api-client.ts';
import type { ContractValidation } from '../contract/contract-validation.ts';
import { readContractInForce } from '../contract/run-contract.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import { declaredIn } from '../evolution/evolution-plan.ts';
import { plannedEvolution, type RunEvolution } from '../evolution/evolve-tables.ts';
import type { Logger } from '../log/logger.ts';
import type { ProtocolConfig } from './protocol-config.ts';
import { PROTOCOL_STREAMS } from './protocol-streams.ts';

export interface ProtocolContract {
  /** What records are valid under: the served contract when usable, else the bundled one. */
  readonly validation: ContractValidation;
  /** The streams' columns beyond the bundled contract's, and their cells of a row. */
  readonly evolution: RunEvolution;
}

export async function readProtocolContract(input: {
  client: Pick<ApiClient, 'request'>;
  config: ProtocolConfig;
  runId: string;
  now: string;
  logger: Logger;
}): Promise<ProtocolContract> {
  const { client, config, runId, now, logger } = input;
  const contract = await readContractInForce({ client, workspace: DEFAULT_WORKSPACE, runId, now, logger });
  const evolution = plannedEvolution(
    PROTOCOL_STREAMS.map((stream) => stream.table),
    config.config.schema_evolution,
    declaredIn(contract.document),
    config.config.schema_evolution_max_columns,
  );
  return { validation: contract.validation, evolution };
}
