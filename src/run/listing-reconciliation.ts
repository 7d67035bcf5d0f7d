/**
 * What a complete listing means for a run, decided once for every front end
 * (docs/architecture.md#state-rules): which known websites it removes (refused past the
 * mass-removal guard, before anything is written), which listed ids another workspace already
 * holds, which named ids it lacks, and which websites the run plans to read. Pure: the sinks
 * write what it decided.
 */
import type { AivisConfig } from '../../schemas/config.ts';
import type { ActiveWebsite } from '../destination/queries/active-websites.ts';
import { chosenWebsites, type Listing, type PlannedWebsite, refuseUnlisted } from '../feed/list-websites.ts';
import { checkMassRemoval, websitesToRemove } from './reconcile-websites.ts';

export interface ListingReconciliation {
  /** Known websites of this workspace the listing no longer names. */
  readonly removed: readonly string[];
  /** Listed ids active under another workspace, with that workspace: rejected, their streams skipped. */
  readonly taken: ReadonlyMap<string, string>;
  /** `--websites` ids the listing lacks (a command that refuses them has thrown instead). */
  readonly unlisted: readonly string[];
  /** The websites this run reads: listed, chosen by the config and `--websites`, not taken. */
  readonly planned: readonly PlannedWebsite[];
}

export interface ReconcileInput {
  readonly listing: Listing;
  /** Every website the sink knows as active (the destination's, or the protocol state's), with its workspace. */
  readonly known: readonly ActiveWebsite[];
  readonly workspace: string;
  readonly config: AivisConfig;
  /** `--websites`, if given. */
  readonly named: readonly string[] | undefined;
  readonly allowMassRemoval: boolean;
  /** An unlisted `--websites` id is a usage error (exit 2). */
  readonly refusesUnlisted: boolean;
}

/** Throws `MassRemovalError` past the guard, and `ConfigError` for an unlisted id a command refuses. */
export function reconcileListing(input: ReconcileInput): ListingReconciliation {
  const { listing, workspace } = input;
  const own: string[] = [];
  const elsewhere = new Map<string, string>();
  for (const website of input.known) {
    if (website.workspace === workspace) own.push(website.id);
    else elsewhere.set(website.id, website.workspace);
  }
  const removed = websitesToRemove(own, listing.seenIds);
  checkMassRemoval(removed.length, own.length, input.allowMassRemoval);
  if (input.refusesUnlisted) refuseUnlisted(input.named, listing, workspace);
  const taken = new Map<string, string>();
  for (const { website } of listing.websites) {
    const holder = elsewhere.get(website.id);
    if (holder !== undefined) taken.set(website.id, holder);
  }
  const unlisted = (input.named ?? []).filter((id) => !listing.seenIds.has(id));
  const planned = chosenWebsites(listing, input.config, input.named).filter((w) => !taken.has(w.id));
  return { removed, taken, unlisted, planned };
}
