/**
 * Workspaces and API keys of the sandbox (spec part 5). Keys are derived from the seed so a
 * user who restarts `aivis sandbox --seed N` keeps the same key in their shell.
 */
import { Rng } from '../prng.ts';

export type KeyScope = 'read' | 'prompts_write';

/** One API key as the server models it. */
export interface ApiKeyModel {
  /** The workspace every request of this key is bound to, e.g. `wsp_1`. */
  readonly workspaceId: string;
  /** `read` for the read endpoints, `prompts_write` for both import operations. */
  readonly scopes: readonly KeyScope[];
  /** Imports need a V2-eligible key (spec 5.3); reads do not look at it. */
  readonly v2Eligible: boolean;
  /** Imports need an owner-issued key (spec 5.3). */
  readonly ownerIssued: boolean;
  /** Receipts are readable only within the lineage that created them (spec 5.5). */
  readonly lineageId: string;
}

/** A workspace; V2 access is switched on per workspace (spec 5.6). */
export interface WorkspaceModel {
  readonly id: string;
  readonly v2Enabled: boolean;
}

/** The named keys a sandbox hands out; every one is a real key of the registry. */
export interface SandboxKeys {
  /** Workspace 1: read + prompts_write, V2-eligible, owner-issued (lineage A). */
  apiKey: string;
  /** Workspace 1: read only. */
  readOnly: string;
  /** Workspace 1: prompts_write without read (reads get 403). */
  noReadScope: string;
  /** Workspace 3, whose V2 access is disabled (every V2 call gets 403). */
  v2Disabled: string;
  /** Workspace 2: read + prompts_write; workspace 1's ids are 404 for it. */
  otherWorkspace: string;
  /** Workspace 1: the owner's rotation of `apiKey`, same lineage A. */
  rotated: string;
  /** Workspace 1: read + prompts_write, owner-issued, but another lineage. */
  otherLineage: string;
  /** Workspace 1: read + prompts_write, but not V2-eligible (an older write key). */
  notV2Eligible: string;
  /** Workspace 1: read + prompts_write, V2-eligible, but not issued by an owner. */
  notOwnerIssued: string;
}

export interface KeyRegistry {
  readonly keys: SandboxKeys;
  readonly workspaces: readonly WorkspaceModel[];
  /** The key's model, or undefined for an unknown key. */
  lookup(secret: string): ApiKeyModel | undefined;
  workspace(id: string): WorkspaceModel;
}

export const PRIMARY_WORKSPACE = 'wsp_1';
export const OTHER_WORKSPACE = 'wsp_2';
export const DISABLED_WORKSPACE = 'wsp_3';

const BOTH: KeyScope[] = ['read', 'prompts_write'];

export function createKeyRegistry(seed: number): KeyRegistry {
  const workspaces: WorkspaceModel[] = [
    { id: PRIMARY_WORKSPACE, v2Enabled: true },
    { id: OTHER_WORKSPACE, v2Enabled: true },
    { id: DISABLED_WORKSPACE, v2Enabled: false },
  ];
  const models: Record<keyof SandboxKeys, ApiKeyModel> = {
    apiKey: { workspaceId: PRIMARY_WORKSPACE, scopes: BOTH, v2Eligible: true, ownerIssued: true, lineageId: 'lin_a' },
    readOnly: {
      workspaceId: PRIMARY_WORKSPACE,
      scopes: ['read'],
      v2Eligible: true,
      ownerIssued: true,
      lineageId: 'lin_r',
    },
    noReadScope: {
      workspaceId: PRIMARY_WORKSPACE,
      scopes: ['prompts_write'],
      v2Eligible: true,
      ownerIssued: true,
      lineageId: 'lin_w',
    },
    v2Disabled: {
      workspaceId: DISABLED_WORKSPACE,
      scopes: BOTH,
      v2Eligible: true,
      ownerIssued: true,
      lineageId: 'lin_d',
    },
    otherWorkspace: {
      workspaceId: OTHER_WORKSPACE,
      scopes: BOTH,
      v2Eligible: true,
      ownerIssued: true,
      lineageId: 'lin_o',
    },
    rotated: { workspaceId: PRIMARY_WORKSPACE, scopes: BOTH, v2Eligible: true, ownerIssued: true, lineageId: 'lin_a' },
    otherLineage: {
      workspaceId: PRIMARY_WORKSPACE,
      scopes: BOTH,
      v2Eligible: true,
      ownerIssued: true,
      lineageId: 'lin_b',
    },
    notV2Eligible: {
      workspaceId: PRIMARY_WORKSPACE,
      scopes: BOTH,
      v2Eligible: false,
      ownerIssued: true,
      lineageId: 'lin_v1',
    },
    notOwnerIssued: {
      workspaceId: PRIMARY_WORKSPACE,
      scopes: BOTH,
      v2Eligible: true,
      ownerIssued: false,
      lineageId: 'lin_m',
    },
  };
  const keys = {} as SandboxKeys;
  const bySecret = new Map<string, ApiKeyModel>();
  for (const [name, model] of Object.entries(models) as [keyof SandboxKeys, ApiKeyModel][]) {
    const secret = `aivis_sbx_${Rng.of(seed, 'api-key', name).token(32)}`;
    keys[name] = secret;
    bySecret.set(secret, model);
  }
  return {
    keys,
    workspaces,
    lookup: (secret) => bySecret.get(secret),
    workspace: (id) => workspaces.find((w) => w.id === id)!,
  };
}
