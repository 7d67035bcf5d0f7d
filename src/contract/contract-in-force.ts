/**
 * The document in force for one run of one workspace (docs/served-contract.md#which-document-is-in-force):
 * the served one when usable; else the newest usable one kept in `_aivis_contracts` for that
 * workspace; else the bundled contract. Its drift from the bundled contract, the validation
 * records get, and the `_aivis_contracts` row a usable served document leaves.
 */
import type { RowOf } from '../destination/table-spec.ts';
import type { contractsTable } from '../destination/engine-tables.ts';
import { storedWorkspace } from '../destination/workspace.ts';
import { bundledContract } from './bundled-contract.ts';
import type { ContractDocument } from './contract-document.ts';
import { contractDrift, type ContractChange } from './contract-drift.ts';
import { BUNDLED_VALIDATION, ContractValidation } from './contract-validation.ts';
import { SERVED_CONTRACT_PATH, usableContract, type ServedContract } from './served-contract.ts';

export type ContractRow = RowOf<typeof contractsTable>;
export type ContractSource = 'served' | 'kept' | 'bundled';

export interface ContractInForce {
  readonly source: ContractSource;
  readonly document: ContractDocument;
  /** Its drift from the bundled contract (none when the bundled contract is in force). */
  readonly changes: readonly ContractChange[];
  readonly validation: ContractValidation;
  /** Why the served document is not in force and what is instead: the run's one warning about it. */
  readonly warning?: string;
  /** The `_aivis_contracts` row of the usable served document, its first sighting kept. */
  readonly row?: ContractRow;
  /** Whether the served document is one this workspace's runs have not read before. */
  readonly firstSeen: boolean;
  /**
   * Digests of this workspace's kept documents past retention: a sync deletes them, so that
   * with its own row the workspace keeps at most `KEPT_CONTRACTS`.
   */
  readonly retired: readonly string[];
}

/** Distinct documents `_aivis_contracts` keeps per workspace: the most recently seen. */
export const KEPT_CONTRACTS = 10;

const text = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));

/**
 * The newest document kept for the workspaces that is still usable (by `last_seen_at`), or
 * undefined: the fallback of a run (one workspace), and what commands that read no served
 * contract (`streams`, `dbt-sources`: the config's workspaces) take as the document in force
 * when the destination is reachable.
 * @param kept the rows of `_aivis_contracts`
 */
export async function newestKeptContract(
  kept: readonly Record<string, unknown>[],
  workspaces: readonly string[],
): Promise<{ document: ContractDocument; sha256: string } | undefined> {
  const rows = kept
    .filter((row) => workspaces.includes(storedWorkspace(row._workspace)))
    .sort((a, b) => Date.parse(text(b.last_seen_at)) - Date.parse(text(a.last_seen_at)));
  for (const row of rows) {
    let body: unknown;
    try {
      body = typeof row.document === 'string' ? JSON.parse(row.document) : row.document;
    } catch {
      continue;
    }
    const document = await usableContract(body);
    if (typeof document !== 'string') return { document, sha256: text(row.sha256) };
  }
  return undefined;
}

/**
 * The digests of `workspace`'s kept documents past the `KEPT_CONTRACTS - 1` most recently seen
 * (by `last_seen_at`), leaving room for the run's own; `keep` (the document in force) never.
 */
function retiredDocuments(
  kept: readonly Record<string, unknown>[],
  workspace: string,
  keep: readonly (string | undefined)[],
): string[] {
  return kept
    .filter((row) => storedWorkspace(row._workspace) === workspace && !keep.includes(text(row.sha256)))
    .sort((a, b) => Date.parse(text(b.last_seen_at)) - Date.parse(text(a.last_seen_at)))
    .slice(KEPT_CONTRACTS - 1)
    .map((row) => text(row.sha256));
}

async function inForce(
  source: ContractSource,
  document: ContractDocument,
  rest: Pick<ContractInForce, 'warning' | 'row' | 'firstSeen' | 'retired'>,
): Promise<ContractInForce> {
  const changes = source === 'bundled' ? [] : contractDrift(await bundledContract(), document);
  // A document that says what the bundled one says needs no second validator.
  const validation = changes.length === 0 ? BUNDLED_VALIDATION : new ContractValidation(document);
  return { source, document, changes, validation, ...rest };
}

/**
 * @param served what `readServedContract` read
 * @param kept the rows of `_aivis_contracts` (every workspace's; only `workspace`'s are used)
 */
export async function decideContract(input: {
  served: ServedContract;
  kept: readonly Record<string, unknown>[];
  workspace: string;
  runId: string;
  now: string;
}): Promise<ContractInForce> {
  const { served, kept, workspace, runId, now } = input;
  const fallback = served.usable ? undefined : await newestKeptContract(kept, [workspace]);
  const retired = retiredDocuments(kept, workspace, [served.usable ? served.sha256 : fallback?.sha256]);
  if (served.usable) {
    const previous = kept.find((row) => storedWorkspace(row._workspace) === workspace && row.sha256 === served.sha256);
    const decided = await inForce('served', served.document, { firstSeen: previous === undefined, retired });
    const row: ContractRow = {
      _workspace: workspace,
      sha256: served.sha256,
      first_seen_at: previous === undefined ? now : text(previous.first_seen_at),
      last_seen_at: now,
      first_run_id: previous === undefined ? runId : text(previous.first_run_id),
      document: served.json,
      changes: JSON.stringify(decided.changes),
    };
    return { ...decided, row };
  }
  const unusable = `the served contract (GET ${SERVED_CONTRACT_PATH}) is unusable: ${served.reason}`;
  if (fallback !== undefined)
    return inForce('kept', fallback.document, {
      firstSeen: false,
      retired,
      warning: `${unusable}; using the newest usable one kept in _aivis_contracts (sha256 ${fallback.sha256.slice(0, 12)})`,
    });
  return inForce('bundled', await bundledContract(), {
    firstSeen: false,
    retired,
    warning: `${unusable}; using the bundled contract`,
  });
}
