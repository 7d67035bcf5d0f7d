/**
 * The listing step of a run (docs/architecture.md#data-flow, "plan"): the websites listing is
 * read whole, reconciled with the websites the destination knows of this workspace (removals,
 * the mass-removal guard, ids another workspace holds), written when the run's mode writes
 * the listing and it reads the websites stream, and narrowed to the websites this run reads.
 */
import { type ActiveWebsite, listActiveWebsites, markWebsitesRemoved } from '../destination/queries/active-websites.ts';
import { websitesStream } from '../streams/index.ts';
import { rejectedTable, websitesTable } from '../tables/index.ts';
import { completenessPart, listingScope, readWholeRow } from '../trust/completeness.ts';
import {
  chosenWebsites,
  listWebsites,
  type Listing,
  NOT_LISTED,
  type PlannedWebsite,
  refuseUnlisted,
} from '../feed/list-websites.ts';
import { rejectedRow } from '../feed/rejected-rows.ts';
import type { FlushBuffer } from './flush-buffer.ts';
import { checkMassRemoval, websitesToRemove } from './reconcile-websites.ts';
import type { RunContext } from './run-context.ts';

/** Reads and reconciles the listing; returns the websites whose streams this run reads. */
export async function readListing(run: RunContext, buffer: FlushBuffer): Promise<PlannedWebsite[]> {
  const listing = await listWebsites(run.client, run.contract.validation);
  const taken = await reconcile(run, listing, buffer);
  return planWebsites(run, listing, taken);
}

/**
 * Every run checks the listing against the websites the destination knows of this workspace (a
 * key moved to another workspace must neither wipe nor fill the warehouse, whatever streams
 * run); only a run whose mode writes the listing, of the websites stream, writes it and marks
 * removals (when its mode marks them). Returns the
 * listed ids another workspace already holds: they are rejected, and their streams skipped.
 */
async function reconcile(run: RunContext, listing: Listing, buffer: FlushBuffer): Promise<ReadonlySet<string>> {
  const { destination, counters, logger } = run;
  const { own, elsewhere } = splitByWorkspace(await listActiveWebsites(destination), run.workspace);
  const removed = websitesToRemove(own, listing.seenIds);
  checkMassRemoval(removed.length, own.length, run.allowMassRemoval ?? false);
  await recordListingRejections(run, listing, buffer);
  const taken = await rejectTakenWebsites(run, listing, elsewhere, buffer);
  if (!(run.streams.includes(websitesStream.name) && run.mode.writesListing)) return taken;
  const context = { runId: run.runId, syncedAt: run.syncedAt, workspace: run.workspace, evolution: run.evolution };
  const websites = listing.websites.filter(({ website }) => !taken.has(website.id));
  await buffer.add({
    tables: [
      {
        table: websitesTable,
        rows: websites.map(({ website, raw }) => websitesStream.toRow(website, raw, context)),
      },
      // The listing was read whole after the run started: complete through the run's start.
      ...completenessPart(readWholeRow(websitesStream.name, listingScope(run.workspace), run.syncedAt, run)),
    ],
  });
  counters.stream(websitesStream.name).rows += websites.length;
  // Removal marks only after the listing's rows are durable: a returning website is cleared first.
  await buffer.flush();
  if (removed.length > 0 && run.mode.marksRemovals) {
    await markWebsitesRemoved(destination, removed, run.syncedAt);
    counters.removedWebsites = removed.length;
    logger.info('websites no longer listed were marked removed', { count: removed.length });
  }
  return taken;
}

/**
 * A listed website another workspace already holds (active there) is not overwritten: ids are
 * one space across workspaces, so the same id from two keys is a conflict for a person to
 * settle. It is rejected to `_aivis_rejected`, once per workspace and website, and its streams
 * are skipped; a website removed in its old workspace may move.
 */
async function rejectTakenWebsites(
  run: RunContext,
  listing: Listing,
  elsewhere: ReadonlyMap<string, string>,
  buffer: FlushBuffer,
): Promise<ReadonlySet<string>> {
  const taken = listing.websites.filter(({ website }) => elsewhere.has(website.id));
  if (taken.length === 0) return new Set();
  const rows = taken.map(({ website, raw }) =>
    rejectedRow({
      stream: websitesStream.name,
      scope: website.id,
      error: `website ${website.id} is already synced from workspace "${elsewhere.get(website.id)}"; an id seen from two workspaces is not overwritten`,
      raw,
      // The same conflict on every run is one rejection, whatever the website's fields say now.
      identity: { website_id: website.id },
      runId: run.runId,
      syncedAt: run.syncedAt,
      workspace: run.workspace,
    }),
  );
  await buffer.add({ tables: [{ table: rejectedTable, rows }] });
  run.counters.stream(websitesStream.name).rejected += rows.length;
  run.logger.error('websites already synced from another workspace were rejected; their streams are skipped', {
    workspace: run.workspace,
    website_ids: taken.map(({ website }) => website.id),
  });
  return new Set(taken.map(({ website }) => website.id));
}

/** The workspace's own active website ids, and the others' by id with their workspace. */
function splitByWorkspace(active: readonly ActiveWebsite[], workspace: string) {
  const own: string[] = [];
  const elsewhere = new Map<string, string>();
  for (const website of active) {
    if (website.workspace === workspace) own.push(website.id);
    else elsewhere.set(website.id, website.workspace);
  }
  return { own, elsewhere };
}

/** Listing records that break the schema are kept in `_aivis_rejected` whatever streams run. */
async function recordListingRejections(run: RunContext, listing: Listing, buffer: FlushBuffer): Promise<void> {
  if (listing.rejected.length === 0) return;
  const context = { runId: run.runId, syncedAt: run.syncedAt, workspace: run.workspace, evolution: run.evolution };
  const rows = listing.rejected.map((r) =>
    rejectedRow({ stream: websitesStream.name, scope: '*', error: r.error, raw: r.raw, ...context }),
  );
  await buffer.add({ tables: [{ table: rejectedTable, rows }] });
  run.counters.stream(websitesStream.name).rejected += rows.length;
  run.logger.warn('website records rejected', { count: rows.length });
}

function planWebsites(run: RunContext, listing: Listing, taken: ReadonlySet<string>): PlannedWebsite[] {
  const only = run.websites;
  // A backfill re-reads what it names: an id the API does not list is a typo, not a website to skip.
  if (run.mode.refusesUnlisted) refuseUnlisted(only, listing, run.workspace);
  for (const id of only ?? []) {
    if (listing.seenIds.has(id)) continue;
    // Asked for by name and not there: a failure the exit code shows, not a silent skip.
    run.counters.failedWebsites.push({ websiteId: id, stream: 'websites', error: NOT_LISTED });
    run.logger.error(`website ${NOT_LISTED}; skipped`, { website_id: id });
  }
  return chosenWebsites(listing, run.config, only).filter((w) => !taken.has(w.id));
}
