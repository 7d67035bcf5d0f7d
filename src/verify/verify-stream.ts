/**
 * `aivis verify` (docs/architecture.md#verify): re-reads a closed window of one feed from the
 * API and compares it, website by website, with what the destination holds for the same
 * window; `repair` upserts what the destination lacks.
 *
 * - **Window.** Rows are placed by `available_at`, the publication stamp `updated_since` reads
 *   by. A website's window is `[since, until]`, with `until` defaulting to and capped at the
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
 * - **Frame.** verify is a run of the one run frame (`src/run/run-frame.ts`) with a comparing
 *   sink (`VerifySink`): the listing is read and reconciled as every run's, the websites with a
 *   window are read one at a time (concurrency 1), and a repair holds the run lock and evolves
 *   the stream's table as a sync does.
 * - **Repair** upserts the missing rows, built by the stream's `toRow` and committed through
 *   the destination's ordinary commit with no state entry, under the run lock. Under the
 *   lock the stream's table is first evolved by the document in force, as a sync's is
 *   (docs/served-contract.md#schema-evolution), so a repaired row has the columns and values a
 *   sync would write (a changed type in its `<column>__<type>` column). Extra rows are
 *   never deleted: they may be rows the API no longer shows (revoked, deleted upstream) that a
 *   user still wants.
 */
import type { AivisConfig } from '../../schemas/config.ts';
import type { ApiClient } from '../client/api-client.ts';
import type { ContractValidation } from '../contract/contract-validation.ts';
import type { DeclaredRecords } from '../evolution/evolution-plan.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import type { Destination } from '../destination/destination.ts';
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
import type { DurableUnit } from '../feed/durable-unit.ts';
import type { FeedObserver, StreamFailure } from '../feed/feed-observer.ts';
import type { WebsiteOutcome } from '../feed/feed-reader.ts';
import { isChosen, NOT_LISTED, type PlannedWebsite } from '../feed/list-websites.ts';
import type { ListingReconciliation } from '../run/listing-reconciliation.ts';
import { runFrame } from '../run/run-frame.ts';
import type { VerifyMode } from '../run/run-mode.ts';
import type { RunContract, RunDestination, RunSink } from '../run/run-sink.ts';
import type { WebsitePages } from '../run/website-pool.ts';
import type { FlushBuffer, FlushBufferOptions } from '../run/flush-buffer.ts';
import {
  combineWebsites,
  compareWebsite,
  type VerifyComparison,
  type VerifyWindow,
  type WebsiteDifference,
  withinWindow,
} from './verify-comparison.ts';
import { estimateRequests, type RequestEstimate } from './verify-estimate.ts';

/** The column both sides window by. */
const STAMP_COLUMN = 'available_at';

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
  /** The window (`since`, `until`), the websites named, and whether to repair. */
  readonly mode: VerifyMode;
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
  /** Websites in scope (listed, chosen) with no committed frontier for the stream: never synced; among `skipped` too. */
  readonly never_synced: readonly string[];
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
  const { destination, stream, config, mode } = options;
  const since = microsecondTimestamp(mode.since);
  const frontiers = websiteFrontiers(await options.stateStore.load(), stream.name);
  const skipped: SkippedWebsite[] = [];
  const unsynced: string[] = [];
  const neverSynced = (website: string) => {
    unsynced.push(website);
    skipped.push({ website_id: website, reason: `no committed frontier for ${stream.name} yet: sync it first` });
  };
  const windows = new Map<string, VerifyWindow>();
  for (const [website, frontier] of [...frontiers].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!isChosen(website, config, mode.websites)) continue;
    if (frontier === null) {
      neverSynced(website);
      continue;
    }
    const until = mode.until === undefined ? frontier : min(microsecondTimestamp(mode.until), frontier);
    if (until < since)
      skipped.push({ website_id: website, reason: `its ${stream.name} frontier ${frontier} is before --since` });
    else windows.set(website, { since, until });
  }

  const id = idColumn(stream);
  const scans = stream.scans(streamOptions(stream, config));
  const rowsSince = async (websiteId: string) =>
    (
      await windowIds(destination, {
        table: stream.table.name,
        idColumn: id,
        websiteId,
        stampColumn: STAMP_COLUMN,
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

  // Every listed website in scope counts: one without a frontier was never synced, never "equal".
  const unknown = (website: string) => {
    if (!frontiers.has(website)) neverSynced(website);
  };
  const sink = new VerifySink(options, id, windows, skipped, unknown);
  await runFrame(
    {
      ...options,
      streams: [stream.name as StreamName],
      // Websites one after another: one website's id sets and one flush of repairs in memory.
      concurrency: 1,
    },
    sink,
  );
  const comparison = combineWebsites(sink.verified);
  const failed = [...sink.failed].sort((a, b) => (a.website_id < b.website_id ? -1 : 1));
  return { ...comparison, stream: stream.name, skipped, failed, never_synced: unsynced, repaired: sink.repaired };
}

const min = (a: string, b: string) => (a < b ? a : b);

/** Why a website that disappeared during verify is not verified. */
const REVOKED = 'revoked during verify (its feed and the website itself answer 404)';

/** Compares each website's window as its pages arrive (the run frame's sink); a repair writes what the destination lacks. */
class VerifySink implements RunSink {
  readonly destination: RunDestination | undefined;
  readonly observer: FeedObserver;
  readonly verified: VerifiedWebsite[] = [];
  readonly failed: FailedWebsite[] = [];
  repaired = 0;
  readonly #options: VerifyOptions;
  readonly #idColumn: string;
  readonly #windows: Map<string, VerifyWindow>;
  readonly #skipped: SkippedWebsite[];
  /** Each website's failures while it is read. */
  readonly #failures = new Map<string, StreamFailure[]>();

  /** Told each website in scope the listing holds, in id order: the report counts those never synced. */
  readonly #inScope: (websiteId: string) => void;

  constructor(
    options: VerifyOptions,
    idColumn: string,
    windows: Map<string, VerifyWindow>,
    skipped: SkippedWebsite[],
    inScope: (websiteId: string) => void,
  ) {
    this.#options = options;
    this.#inScope = inScope;
    this.#idColumn = idColumn;
    this.#windows = windows;
    this.#skipped = skipped;
    const { destination, stream, config, mode } = options;
    // Repairs write rows: no sync may commit (or read this window) meanwhile, and the rows carry the evolved columns.
    this.destination = mode.repair
      ? {
          destination,
          tables: [stream.table],
          schemaEvolution: config.schema_evolution,
          maxEvolvedColumns: config.schema_evolution_max_columns,
        }
      : undefined;
    // Counting is the comparison's; failures are the report's; the reader logs what a user should see.
    this.observer = {
      pageRead: () => {},
      fellBack: () => {},
      streamFailed: (failure) => void this.#failures.get(failure.websiteId)?.push(failure),
      websiteRevoked: () => {},
    };
  }

  async readContract(): Promise<RunContract> {
    const { validation, declared } = this.#options;
    return { validation, ...(declared === undefined ? {} : { declared }) };
  }

  /** Rows only: a flush with no state entry leaves every saved position as it was. */
  async flushing(evolution: RunEvolution): Promise<FlushBufferOptions> {
    const { destination, stateStore, now } = this.#options;
    return {
      bounds: destination.capabilities,
      commit: (flush) => stateStore.commit(destination, flush),
      now: () => now().getTime(),
      tableOf: (table) => evolution.table(table),
    };
  }

  /** verify judges no removal: the listing is only where the websites are. */
  async knownWebsites() {
    return [];
  }

  async listed(_listing: unknown, reconciled: ListingReconciliation): Promise<void> {
    const planned = new Set(reconciled.planned.map((website) => website.id));
    for (const website of [...planned].sort()) this.#inScope(website);
    for (const website of [...this.#windows.keys()]) {
      if (planned.has(website)) continue;
      this.#windows.delete(website);
      this.#skipped.push({ website_id: website, reason: NOT_LISTED });
    }
  }

  /** No saved position is read: every scan starts at `since`, and no state is handed on. */
  async savedPositions() {
    return () => INITIAL_STATE;
  }

  reads(websiteId: string): boolean {
    return this.#windows.has(websiteId);
  }

  async pagesOf(website: PlannedWebsite, buffer: FlushBuffer): Promise<WebsitePages> {
    const { destination, stream, mode } = this.#options;
    const window = this.#windows.get(website.id)!;
    const stored = new Set(
      await windowIds(destination, {
        table: stream.table.name,
        idColumn: this.#idColumn,
        websiteId: website.id,
        stampColumn: STAMP_COLUMN,
        ...window,
      }),
    );
    const read = new Set<string>();
    let unstamped = 0;
    let repaired = 0;
    const failures: StreamFailure[] = [];
    this.#failures.set(website.id, failures);
    return {
      add: async (unit: DurableUnit) => {
        const missing: Row[] = [];
        for (const part of unit.tables) {
          // Records their schema rejects are in neither side: a sync quarantines them too.
          if (part.table !== stream.table) continue;
          for (const row of part.rows) {
            const stamp = row[STAMP_COLUMN];
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
        if (mode.repair && missing.length > 0) {
          await buffer.add({ tables: [{ table: stream.table, rows: missing }] });
          repaired += missing.length;
        }
      },
      done: async (outcome: WebsiteOutcome) => {
        // The rows read before a failure are the API's own: a repair keeps them.
        await buffer.flush();
        this.repaired += repaired;
        this.#failures.delete(website.id);
        if (outcome === 'revoked') this.#skipped.push({ website_id: website.id, reason: REVOKED });
        else if (failures.length > 0)
          this.failed.push({ website_id: website.id, error: failures.map((f) => f.error).join('; ') });
        else {
          const compared = compareWebsite(website.id, { api: read, destination: stored });
          this.verified.push({ ...compared, ...window, repaired, unstamped });
        }
      },
    };
  }

  async revoked(): Promise<void> {}
}
