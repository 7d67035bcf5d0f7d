/**
 * Reads the complete website listing. It is the run's plan (which websites to sync) and the
 * basis of removal reconciliation, so it is read whole before anything is written: a run
 * whose listing fails part-way writes nothing and infers no removal.
 */
import type { AivisConfig } from '../../schemas/config.ts';
import { websiteIdSchema, type Website } from '../../schemas/index.ts';
import type { ApiClient } from '../client/api-client.ts';
import type { ContractValidation } from '../contract/contract-validation.ts';
import { ConfigError } from '../errors.ts';
import { websitesStream } from '../streams/index.ts';
import { PAGE_LIMIT } from '../streams/stream.ts';

export interface Listing {
  readonly websites: { readonly website: Website; readonly raw: unknown }[];
  readonly rejected: { readonly raw: unknown; readonly error: string }[];
  /** Every id the listing named, valid record or not: a listed website is never "removed". */
  readonly seenIds: ReadonlySet<string>;
  /**
   * The websites to sync: every listed id that is a valid website id, including those whose
   * record broke the schema elsewhere (their evidence is not at fault). `measured` is false
   * only when the record says `last_analysis_at: null` (analytics would be a certain 404).
   */
  readonly plan: readonly {
    readonly id: string;
    readonly measured: boolean;
    /** The record's `last_analysis_at` as text, verbatim (null when it is not text): what change-driven reads compare. */
    readonly lastAnalysisAt?: string | null;
  }[];
}

/** A website a run reads: its id, and whether it was ever measured (a snapshot exists). */
export type PlannedWebsite = Listing['plan'][number];

/** Why a website named with `--websites` is not read when the listing lacks it. */
export const NOT_LISTED = 'not in the listing (removed, or not in this workspace)';

/** Whether the config's `websites.include` and the command's `--websites` (`only`) both let a website through. */
export function isChosen(id: string, config: AivisConfig, only: readonly string[] | undefined): boolean {
  const include = config.websites?.include;
  return (include === undefined || include.includes(id)) && (only === undefined || only.includes(id));
}

/** The listing's websites that the config and `--websites` let through, in listing order. */
export function chosenWebsites(
  listing: Listing,
  config: AivisConfig,
  only: readonly string[] | undefined,
): PlannedWebsite[] {
  return listing.plan.filter((website) => isChosen(website.id, config, only));
}

export async function listWebsites(client: ApiClient, validation: ContractValidation): Promise<Listing> {
  const websites: Listing['websites'][number][] = [];
  const rejected: Listing['rejected'][number][] = [];
  const seenIds = new Set<string>();
  const plan: Listing['plan'][number][] = [];
  const pages = client.paginate({
    path: websitesStream.path,
    query: { limit: PAGE_LIMIT },
    recordSchema: validation.schema(websitesStream.name, 'record', websitesStream.recordSchema),
  });
  for await (const page of pages) {
    for (const record of page.records) {
      const raw = (record.raw ?? {}) as { id?: unknown; last_analysis_at?: unknown };
      if (typeof raw.id === 'string') seenIds.add(raw.id);
      if (record.ok) websites.push({ website: record.value, raw: record.raw });
      else rejected.push({ raw: record.raw, error: record.error });
      if (websiteIdSchema.safeParse(raw.id).success)
        plan.push({
          id: raw.id as string,
          measured: raw.last_analysis_at !== null,
          lastAnalysisAt: typeof raw.last_analysis_at === 'string' ? raw.last_analysis_at : null,
        });
    }
  }
  return { websites, rejected, seenIds, plan };
}

/**
 * `--websites` of a command that re-reads what it names (backfill, verify): an id the listing
 * does not hold is a typo or another workspace's, a usage error naming it (exit 2).
 */
export function refuseUnlisted(named: readonly string[] | undefined, listing: Listing, workspace: string): void {
  const unlisted = (named ?? []).filter((id) => !listing.seenIds.has(id));
  if (unlisted.length === 0) return;
  throw new ConfigError(
    `--websites names ${unlisted.join(', ')}, not listed by the API for workspace ${workspace}: check the id (aivis state show lists the synced ones)`,
  );
}
