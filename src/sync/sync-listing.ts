/**
 * The listing as `sync` and `backfill` keep it (docs/architecture.md#data-flow, "plan"), once the
 * run frame has reconciled it (`reconcileListing`, `src/run/listing-reconciliation.ts`):
 * listing records that break the schema and ids another workspace holds go to
 * `_aivis_rejected` whatever streams run; a sync writes the listing and marks the removals it
 * decided whatever streams it selects (the listing is what coverage is counted over).
 */
import type { Destination } from '../destination/destination.ts';
import { markWebsitesRemoved } from '../destination/queries/active-websites.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import type { Listing } from '../feed/list-websites.ts';
import { rejectedRow } from '../feed/rejected-rows.ts';
import type { Logger } from '../log/logger.ts';
import type { ListingReconciliation } from '../run/listing-reconciliation.ts';
import { websitesStream } from '../streams/index.ts';
import { rejectedTable, websitesTable } from '../tables/index.ts';
import { completenessPart, listingScope, readWholeRow } from '../trust/completeness.ts';
import type { FlushBuffer } from '../run/flush-buffer.ts';
import type { RunCounters } from './run-counters.ts';

export interface ListingRun {
  readonly destination: Destination;
  readonly logger: Logger;
  readonly counters: RunCounters;
  readonly runId: string;
  readonly workspace: string;
  /** The run's start: the listing's rows, its completeness and the removal marks. */
  readonly syncedAt: string;
  readonly evolution: RunEvolution;
  /** Whether the listing's rows are written and its removals marked (every sync, whatever its streams). */
  readonly keepsListing: boolean;
}

export async function writeListing(
  run: ListingRun,
  listing: Listing,
  reconciled: ListingReconciliation,
  buffer: FlushBuffer,
): Promise<void> {
  const { destination, counters, logger } = run;
  await recordListingRejections(run, listing, buffer);
  await rejectTakenWebsites(run, listing, reconciled.taken, buffer);
  if (!run.keepsListing) return;
  const context = { runId: run.runId, syncedAt: run.syncedAt, workspace: run.workspace, evolution: run.evolution };
  const websites = listing.websites.filter(({ website }) => !reconciled.taken.has(website.id));
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
  const { removed } = reconciled;
  if (removed.length > 0) {
    await markWebsitesRemoved(destination, removed, run.syncedAt);
    counters.removedWebsites = removed.length;
    logger.info('websites no longer listed were marked removed', { count: removed.length });
  }
}

/**
 * A listed website another workspace already holds (active there) is not overwritten: ids are
 * one space across workspaces, so the same id from two keys is a conflict for a person to
 * settle. It is rejected to `_aivis_rejected`, once per workspace and website, and its streams
 * are skipped (the reconciliation leaves it out of the plan); a website removed in its old
 * workspace may move.
 */
async function rejectTakenWebsites(
  run: ListingRun,
  listing: Listing,
  taken: ReadonlyMap<string, string>,
  buffer: FlushBuffer,
): Promise<void> {
  const listed = listing.websites.filter(({ website }) => taken.has(website.id));
  if (listed.length === 0) return;
  const rows = listed.map(({ website, raw }) =>
    rejectedRow({
      stream: websitesStream.name,
      scope: website.id,
      error: `website ${website.id} is already synced from workspace "${taken.get(website.id)}"; an id seen from two workspaces is not overwritten`,
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
    website_ids: listed.map(({ website }) => website.id),
  });
}

/** Listing records that break the schema are kept in `_aivis_rejected` whatever streams run. */
async function recordListingRejections(run: ListingRun, listing: Listing, buffer: FlushBuffer): Promise<void> {
  if (listing.rejected.length === 0) return;
  const context = { runId: run.runId, syncedAt: run.syncedAt, workspace: run.workspace, evolution: run.evolution };
  const rows = listing.rejected.map((r) =>
    rejectedRow({ stream: websitesStream.name, scope: '*', error: r.error, raw: r.raw, ...context }),
  );
  await buffer.add({ tables: [{ table: rejectedTable, rows }] });
  run.counters.stream(websitesStream.name).rejected += rows.length;
  run.logger.warn('website records rejected', { count: rows.length });
}
