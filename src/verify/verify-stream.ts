/**
 * `aivis verify` (docs/architecture.md#verify): re-reads a closed window of one feed from the
 * API and compares it, website by website, with what the destination holds for the same
 * window; `repair` upserts what the destination lacks.
 *
 * - **Window.** Rows are placed by the stream's `windowColumn` (`available_at`), the publication
 *   stamp `updated_since` reads by. A website's window is `[since, until]`, with `until` defaulting to and capped at the
 *   website's committed frontier (the lowest frontier of its scans, from saved state): above it
 *   writes may still be in flight, and they would show as noise, not loss. A website with no
 *   committed frontier has nothing closed to verify. A citation without a usable `available_at`
 *   (the spec shows no citation fields) lies in no window on either side; it is counted as
 *   `unstamped`.
 * - **Reads.** No state is read for positions or written: each scan the stream runs for a
 *   website under the config (one per provider for filtered mentions, one per analysis where
 *   the API wants `analysis_id` for citations) starts at `updated_since = since` and runs to
 *   the end of the feed through the same client, limiter and paginator as a sync.
 * - **Memory.** Websites are verified one after another; one website's destination ids and
 *   API ids in the window are held, plus at most one flush of rows to repair. Only the capped
 *   id lists of each website outlive it.
 * - **Repair** upserts the missing rows, built by the stream's `toRow` and committed through
 *   the destination's ordinary commit with no state entry, under the run lock. Under the
 *   lock the stream's table is first evolved by the document in force, as a sync's is
 *   (docs/served-contract.md#schema-evolution), so a repaired row has the columns and values a
 *   sync would write (a changed type in its `<column>__<type>` column). Extra rows are
 *   never deleted: they may be rows the API no longer shows (revoked, deleted upstream) that a
 *   user still wants.
 */
import os from 'node:os';
import type { AivisConfig } from '../../schemas/config.ts';
import type { ApiClient } from '../client/api-client.ts';
import type { ContractValidation } from '../contract/contract-validation.ts';
import type { DeclaredRecords } from '../evolution/evolution-plan.ts';
import { evolveTables, RunEvolution } from '../evolution/evolve-tables.ts';
import type { Destination, DestinationLock } from '../destination/destination.ts';
import { listActiveWebsites } from '../destination/queries/active-websites.ts';
import { windowIds } from '../destination/queries/window-ids.ts';
import type { Row } from '../destination/table-spec.ts';
import { microsecondTimestamp } from '../destination/timestamp-micros.ts';
import type { Logger } from '../log/logger.ts';
import type { StateEntry } from '../state/state-entry.ts';
import type { StateStore } from '../state/state-store.ts';
import { INITIAL_STATE } from '../state/stream-state.ts';
import { type StreamName, streamOptions } from '../streams/index.ts';
import type { AnyFeedStream } from '../streams/stream.ts';
import type { DurableUnit, FeedSink } from '../feed/durable-unit.ts';
import { FeedReader } from '../feed/feed-reader.ts';
import type { StreamFailure } from '../feed/feed-observer.ts';
import { isChosen, listWebsites, NOT_LISTED, type PlannedWebsite, refuseUnlisted } from '../feed/list-websites.ts';
import { FlushBuffer } from '../sync/flush-buffer.ts';
import {
  combineWebsites,
  compareWebsite,
  type VerifyComparison,
  type VerifyWindow,
  type WebsiteDifference,
  withinWindow,
} from './verify-comparison.ts';
import { estimateRequests, type RequestEstimate } from './verify-estimate.ts';

export interface VerifyOptions {
  readonly config: AivisConfig;
  readonly client: ApiClient;
  readonly destination: Destination;
  readonly stateStore: StateStore;
  readonly logger: Logger;
  /** The workspace verified: its websites, its lock, its rows' `_workspace`. */
  readonly workspace: string;
  readonly stream: AnyFeedStream;
  /** What records are checked against: the workspace's document in force (docs/served-contract.md#validation). */
  readonly validation: ContractValidation;
  /** What the document in force declares: a repair evolves the stream's table by it first. None: the table's columns as they are. */
  readonly declared?: DeclaredRecords;
  readonly since: string;
  readonly until?: string;
  /** Only these websites (intersected with the config's `websites.include`). */
  readonly websites?: readonly string[];
  readonly repair: boolean;
  /** `_run_id` of repaired rows, and the lock's holder. */
  readonly runId: string;
  readonly now: () => Date;
  /** Told the request estimate before the API is read. */
  onEstimate(estimate: RequestEstimate): void;
  readonly signal?: AbortSignal;
}

export interface VerifiedWebsite extends WebsiteDifference {
  readonly since: string;
  readonly until: string;
  /** Missing rows upserted by `repair` (0 without it). */
  readonly repaired: number;
  /** API rows without a usable `available_at` (citations only): in no window. */
  readonly unstamped: number;
}

export interface SkippedWebsite {
  readonly website_id: string;
  readonly reason: string;
}

/** A website whose reads failed (contained as in a sync): not compared; the command exits 3. */
export interface FailedWebsite {
  readonly website_id: string;
  readonly error: string;
}

export interface VerifyReport extends VerifyComparison<VerifiedWebsite> {
  readonly stream: string;
  /** Listed or named websites that could not be verified, and why. */
  readonly skipped: readonly SkippedWebsite[];
  /** Websites whose reads failed; the others were verified. */
  readonly failed: readonly FailedWebsite[];
  readonly repaired: number;
}

/** The column that tells a website's rows apart: the table's key without `website_id`. */
function idColumn(stream: AnyFeedStream): string {
  const [column, ...more] = stream.table.primaryKey.filter((name) => name !== 'website_id');
  if (column === undefined || more.length > 0)
    throw new Error(`verify needs one id column per website in ${stream.table.name}'s key`);
  return column;
}

/**
 * Each website's committed frontier for the stream, at stored precision: the lowest over its
 * scopes (`web_1`, `web_1?provider=gemini`, ...), or null when one of them never completed a scan.
 */
function websiteFrontiers(entries: readonly StateEntry[], stream: string): Map<string, string | null> {
  const frontiers = new Map<string, string | null>();
  for (const entry of entries) {
    if (entry.stream !== stream) continue;
    const website = entry.scope.split('?')[0]!;
    const frontier = entry.state.frontier === null ? null : microsecondTimestamp(entry.state.frontier);
    const known = frontiers.get(website);
    if (known === undefined) frontiers.set(website, frontier);
    else if (known !== null) frontiers.set(website, frontier === null || frontier < known ? frontier : known);
  }
  return frontiers;
}

export async function verifyStream(options: VerifyOptions): Promise<VerifyReport> {
  const { destination, stream, config } = options;
  const since = microsecondTimestamp(options.since);
  const frontiers = websiteFrontiers(await options.stateStore.load(), stream.name);
  const skipped: SkippedWebsite[] = [];
  const windows = new Map<string, VerifyWindow>();
  for (const [website, frontier] of [...frontiers].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!isChosen(website, config, options.websites)) continue;
    if (frontier === null) {
      skipped.push({ website_id: website, reason: `no committed frontier for ${stream.name} yet: sync it first` });
      continue;
    }
    const until = options.until === undefined ? frontier : min(microsecondTimestamp(options.until), frontier);
    if (until < since)
      skipped.push({ website_id: website, reason: `its ${stream.name} frontier ${frontier} is before --since` });
    else windows.set(website, { since, until });
  }
  for (const website of options.websites ?? []) {
    if (!frontiers.has(website))
      skipped.push({ website_id: website, reason: `no committed frontier for ${stream.name} yet: sync it first` });
  }

  const id = idColumn(stream);
  const scans = stream.scans(streamOptions(stream, config));
  const rowsSince = async (websiteId: string) =>
    (
      await windowIds(destination, {
        table: stream.table.name,
        idColumn: id,
        websiteId,
        stampColumn: stream.windowColumn,
        since,
      })
    ).length;
  const plan = [];
  for (const website of windows.keys()) plan.push({ rowsSince: await rowsSince(website), scans: scans.length });
  options.onEstimate(
    estimateRequests({
      listedWebsites: (await listActiveWebsites(destination)).filter((w) => w.workspace === options.workspace).length,
      websites: plan,
    }),
  );

  const listing = await listWebsites(options.client, options.validation);
  refuseUnlisted(options.websites, listing, options.workspace);
  const planned = new Map(listing.plan.map((website) => [website.id, website]));
  for (const website of [...windows.keys()]) {
    if (planned.has(website)) continue;
    windows.delete(website);
    skipped.push({ website_id: website, reason: NOT_LISTED });
  }

  let lock: DestinationLock | undefined;
  let evolution = new RunEvolution();
  if (options.repair) {
    // Repairs write rows: no sync may commit (or read this window) meanwhile.
    const startedAt = options.now().toISOString();
    lock = await destination.acquireLock({
      runId: options.runId,
      host: os.hostname(),
      pid: process.pid,
      startedAt,
      workspace: options.workspace,
    });
  }
  try {
    if (options.repair && options.declared !== undefined)
      evolution = await evolveTables({
        destination,
        tables: [stream.table],
        mode: config.schema_evolution,
        declared: options.declared,
        logger: options.logger,
      });
    const reader = new WindowReader(options, id, evolution);
    const verified: VerifiedWebsite[] = [];
    const failed: FailedWebsite[] = [];
    let repaired = 0;
    for (const [websiteId, window] of windows) {
      const outcome = await reader.verify(planned.get(websiteId)!, window);
      repaired += outcome.repaired;
      if (outcome.kind === 'verified') verified.push(outcome.website);
      else if (outcome.kind === 'failed') failed.push({ website_id: websiteId, error: outcome.error });
      else skipped.push({ website_id: websiteId, reason: REVOKED });
    }
    const comparison = combineWebsites(verified);
    return { ...comparison, stream: stream.name, skipped, failed, repaired };
  } finally {
    await lock?.release();
  }
}

const min = (a: string, b: string) => (a < b ? a : b);

/** Why a website that disappeared during verify is not verified. */
const REVOKED = 'revoked during verify (its feed and the website itself answer 404)';

/** One website's window read: compared, or not (its reads failed, or it disappeared); rows repaired either way. */
type WebsiteOutcome =
  | { readonly kind: 'verified'; readonly website: VerifiedWebsite; readonly repaired: number }
  | { readonly kind: 'failed'; readonly error: string; readonly repaired: number }
  | { readonly kind: 'revoked'; readonly repaired: number };

/** Reads and compares one website's window at a time, through the one feed reader. */
class WindowReader {
  readonly #options: VerifyOptions;
  readonly #idColumn: string;
  readonly #reader: FeedReader;
  /** The failures of the website being read (websites are read one at a time). */
  #failures: StreamFailure[] = [];
  readonly #evolution: RunEvolution;

  constructor(options: VerifyOptions, idColumn: string, evolution: RunEvolution) {
    this.#options = options;
    this.#idColumn = idColumn;
    this.#evolution = evolution;
    const record = (failure: StreamFailure) => void this.#failures.push(failure);
    this.#reader = new FeedReader({
      client: options.client,
      logger: options.logger,
      config: options.config,
      streams: [options.stream.name as StreamName],
      // Counting is the comparison's; failures are the report's; the reader logs what a user should see.
      observer: { pageRead: () => {}, fellBack: () => {}, streamFailed: record, websiteRevoked: () => {} },
      validation: options.validation,
      evolution,
      runId: options.runId,
      workspace: options.workspace,
      now: options.now,
      // No saved position is read: every scan starts at `since`, and no state is handed on.
      position: () => INITIAL_STATE,
      since: options.since,
    });
  }

  async verify(website: PlannedWebsite, window: VerifyWindow): Promise<WebsiteOutcome> {
    const { destination, stream } = this.#options;
    const stored = new Set(
      await windowIds(destination, {
        table: stream.table.name,
        idColumn: this.#idColumn,
        websiteId: website.id,
        stampColumn: stream.windowColumn,
        ...window,
      }),
    );
    const read = new Set<string>();
    let unstamped = 0;
    let repaired = 0;
    const repairs = this.#options.repair ? this.#repairBuffer() : undefined;
    const sink: FeedSink = {
      add: async (unit: DurableUnit) => {
        const missing: Row[] = [];
        for (const part of unit.tables) {
          // Records their schema rejects are in neither side: a sync quarantines them too.
          if (part.table !== stream.table) continue;
          for (const row of part.rows) {
            const stamp = row[stream.windowColumn];
            if (typeof stamp !== 'string') {
              unstamped++;
              continue;
            }
            if (!withinWindow(stamp, window)) continue;
            const id = String(row[this.#idColumn]);
            if (!stored.has(id) && !read.has(id)) missing.push(row);
            read.add(id);
          }
        }
        if (repairs && missing.length > 0) {
          await repairs.add({ tables: [{ table: stream.table, rows: missing }] });
          repaired += missing.length;
        }
      },
    };
    this.#failures = [];
    const outcome = await this.#reader.readWebsite(website, sink, this.#options.signal);
    // The rows read before a failure are the API's own: a repair keeps them.
    await repairs?.flush();
    if (outcome === 'revoked') return { kind: 'revoked', repaired };
    if (this.#failures.length > 0)
      return { kind: 'failed', error: this.#failures.map((f) => f.error).join('; '), repaired };
    const compared = compareWebsite(website.id, { api: read, destination: stored });
    return { kind: 'verified', website: { ...compared, ...window, repaired, unstamped }, repaired };
  }

  /** Rows only: a flush with no state entry leaves every saved position as it was. */
  #repairBuffer(): FlushBuffer {
    const { destination, stateStore, now } = this.#options;
    return new FlushBuffer({
      bounds: destination.capabilities,
      commit: (flush) => stateStore.commit(destination, flush),
      now: () => now().getTime(),
      tableOf: (table) => this.#evolution.table(table),
    });
  }
}
