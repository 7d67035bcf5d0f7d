/**
 * One protocol `read` (Airbyte) or sync (Singer) (docs/protocols.md#how-it-works): the run
 * frame every front end runs (`src/run/run-frame.ts`), without a destination, so without the
 * lock and table evolution. Its sink (`ProtocolRunSink`) reads the served contract first (what
 * records are valid under and the columns they carry, which the writer learns before any
 * record), reconciles the listing with the known websites of the state (removals, the
 * mass-removal guard, as `sync` does against its tables), and hands the flush buffer's flushes
 * to the `ProtocolSink`, which writes them as records and then state. The rate budget, retries,
 * scan guards, fallbacks and containment are the reader's and the client's, as in `sync`.
 *
 * Under `skip_unchanged` (docs/protocols.md#change-driven-reads) the run's read decision is the
 * planner's, as in `sync`, over the coverage the incremental streams keep in their own state:
 * only streams the catalog reads incrementally may be skipped; every other one is read for
 * every website, since a full-refresh stream (overwritten downstream) must never lose one.
 *
 * How each stream ended (docs/protocols.md#failures): a stream that failed for some website
 * (its requests failed after retries, or the server broke the contract) ends incomplete with a
 * `system_error` while the other streams and websites go on; a failure that ends the whole
 * read (a key the API refuses, the mass-removal guard, an API that is not answering) fails
 * every stream, typed for the platform.
 */
import type { ApiClient } from '../client/api-client.ts';
import { ApiError } from '../client/api-error.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import { ConfigError } from '../errors.ts';
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import type { FeedObserver } from '../feed/feed-observer.ts';
import type { Listing, PlannedWebsite } from '../feed/list-websites.ts';
import type { Logger } from '../log/logger.ts';
import type { ListingReconciliation } from '../run/listing-reconciliation.ts';
import { runFrame } from '../run/run-frame.ts';
import type { RunContract, RunSink } from '../run/run-sink.ts';
import type { WebsitePages } from '../run/website-pool.ts';
import { websitesStream } from '../streams/index.ts';
import type { StreamName } from '../streams/registry.ts';
import type { FlushBuffer, FlushBufferOptions } from '../run/flush-buffer.ts';
import { MassRemovalError } from '../run/reconcile-websites.ts';
import { changeSettings } from '../plan/change-settings.ts';
import { type CoveragePlan, coveragePlanOf } from '../sync/coverage-plan.ts';
import { newRunId } from '../sync/run-sync.ts';
import { websitesTable } from '../tables/index.ts';
import type { ProtocolConfig } from './protocol-config.ts';
import { readProtocolContract } from './protocol-contract.ts';
import { PROTOCOL_FLUSH_BOUNDS, ProtocolSink, type ProtocolWriter } from './protocol-sink.ts';
import type { ProtocolState } from './protocol-state.ts';
import type { ProtocolStream } from './protocol-streams.ts';

/** Websites read at once, as `sync` reads them; the rate limiter bounds the request rate whatever this is. */
const CONCURRENCY = 4;

/** Airbyte's failure types; Singer has none, and says the message alone. */
export type FailureType = 'config_error' | 'system_error' | 'transient_error';

export interface ReadFailure {
  /** The stream it belongs to; none when the whole read failed. */
  readonly stream?: ProtocolStream;
  readonly message: string;
  readonly failureType: FailureType;
}

export interface SelectedStream {
  readonly stream: ProtocolStream;
  /** Resume from `--state` (Airbyte `incremental`); otherwise read from the start. */
  readonly incremental: boolean;
}

export interface ReadInput {
  readonly config: ProtocolConfig;
  /** The workspace's client (its rate budget and retries); the caller closes it. */
  readonly client: ApiClient;
  readonly selected: readonly SelectedStream[];
  readonly state: ProtocolState;
  readonly writer: ProtocolWriter;
  readonly logger: Logger;
  /** The read's clock (its start, the rows' `_synced_at`); default the machine's. */
  readonly now?: () => Date;
}

export interface ReadOutcome {
  /** Per stream: read through, or not. */
  readonly complete: ReadonlyMap<ProtocolStream, boolean>;
  readonly failures: readonly ReadFailure[];
}

export async function readStreams(input: ReadInput): Promise<ReadOutcome> {
  const { selected, config, logger, state } = input;
  const now = input.now ?? (() => new Date());
  const runId = newRunId(now());
  const reads = engineReads(selected);
  // A stream the catalog reads full refresh keeps no coverage, even one handed back from when it was
  // incremental; dropped before the first STATE, since a Singer STATE carries every stream's bookmark.
  for (const source of reads.streams) if (!reads.incremental.has(source)) state.dropCoverage(source);
  const sink = new ProtocolRunSink(input, reads, runId, now);
  try {
    await runFrame(
      {
        client: input.client,
        config: config.config,
        logger,
        workspace: DEFAULT_WORKSPACE,
        mode: { kind: 'protocol', resumed: reads.incremental, allowMassRemoval: config.allowMassRemoval },
        streams: reads.streams,
        runId,
        now,
        concurrency: CONCURRENCY,
      },
      sink,
    );
  } catch (error) {
    sink.failures.push({ message: failureMessage(error), failureType: failureType(error) });
  }
  const { failures } = sink;
  const whole = failures.some((f) => f.stream === undefined);
  const complete = new Map(
    selected.map(({ stream }) => [stream, !whole && !failures.some((f) => f.stream === stream)] as const),
  );
  return { complete, failures };
}

/** The engine streams the selected protocol streams read, and those the catalog reads incrementally. */
interface EngineReads {
  readonly streams: readonly StreamName[];
  /** Resumed from their state, and the only ones a change-driven read may skip. */
  readonly incremental: ReadonlySet<StreamName>;
}

function engineReads(selected: readonly SelectedStream[]): EngineReads {
  return {
    streams: [...new Set(selected.map(({ stream }) => stream.source))],
    incremental: new Set(selected.filter((s) => s.incremental).map(({ stream }) => stream.source)),
  };
}

/** Where a protocol read's rows go: the `ProtocolSink`'s messages, the known websites standing for a destination's. */
class ProtocolRunSink implements RunSink {
  readonly failures: ReadFailure[] = [];
  readonly observer: FeedObserver;
  readonly #input: ReadInput;
  readonly #reads: EngineReads;
  readonly #runId: string;
  readonly #now: () => Date;
  readonly #messages: ProtocolSink;
  #startedAt = '';
  #evolution: RunEvolution | undefined;
  #coverage: CoveragePlan | undefined;
  /** `website id\u0000engine stream` of each stream that failed for a website: its read is not whole. */
  readonly #failed = new Set<string>();

  constructor(input: ReadInput, reads: EngineReads, runId: string, now: () => Date) {
    this.#input = input;
    this.#reads = reads;
    this.#runId = runId;
    this.#now = now;
    const { selected, state, writer, logger } = input;
    this.#messages = new ProtocolSink({
      writer,
      state,
      selected: new Map(selected.map(({ stream }) => [stream.name, stream])),
      runId,
      logger,
    });
    this.observer = {
      pageRead() {},
      fellBack() {},
      streamFailed: (failure) => {
        this.#failed.add(`${failure.websiteId}\u0000${failure.stream}`);
        for (const { stream } of selected.filter((s) => s.stream.source === failure.stream))
          this.failures.push({
            stream,
            message: `website ${failure.websiteId}: ${failure.error}`,
            failureType: 'system_error',
          });
      },
      websiteRevoked() {},
    };
  }

  async readContract(startedAt: string): Promise<RunContract> {
    const { client, config, logger, writer } = this.#input;
    this.#startedAt = startedAt;
    const contract = await readProtocolContract({ client, config, runId: this.#runId, now: startedAt, logger });
    await writer.begin(contract.evolution);
    this.#evolution = contract.evolution;
    return contract;
  }

  async flushing(): Promise<FlushBufferOptions> {
    return {
      bounds: PROTOCOL_FLUSH_BOUNDS,
      commit: (flush) => this.#messages.commit(flush),
      now: () => this.#now().getTime(),
    };
  }

  async knownWebsites() {
    return [...this.#input.state.knownWebsites.keys()].map((id) => ({ id, workspace: DEFAULT_WORKSPACE }));
  }

  /** The listing's records, then removal records: a website that came back is listed again first. */
  async listed(listing: Listing, reconciled: ListingReconciliation, buffer: FlushBuffer): Promise<void> {
    for (const { error } of listing.rejected)
      this.#input.logger.warn('record rejected: it is not emitted', { stream: websitesStream.name, scope: '*', error });
    const context = {
      runId: this.#runId,
      syncedAt: this.#startedAt,
      workspace: DEFAULT_WORKSPACE,
      evolution: this.#evolution,
    };
    const rows = listing.websites.map(({ website, raw }) => websitesStream.toRow(website, raw, context));
    await buffer.add({ tables: [{ table: websitesTable, rows }] });
    await buffer.flush();
    await this.#messages.removeWebsites(reconciled.removed, this.#startedAt);
  }

  async savedPositions() {
    const { state } = this.#input;
    return (stream: string, scope: string) => state.position(stream, scope);
  }

  /** Change-driven reads: the planner's decision over the coverage the incremental streams' states keep. */
  async decideReads(planned: readonly PlannedWebsite[], buffer: FlushBuffer) {
    const { config, state, logger } = this.#input;
    const { streams, incremental } = this.#reads;
    const settings = changeSettings(config.config.source);
    const coverage = coveragePlanOf(
      {
        workspace: DEFAULT_WORKSPACE,
        settings,
        streams,
        websites: planned,
        saved: state.feedStates,
        run: { workspace: DEFAULT_WORKSPACE, runId: this.#runId, startedAt: this.#startedAt },
        readsWhatItNames: false,
        recordsCoverage: settings.skipUnchanged,
        skippable: (stream) => incremental.has(stream as StreamName),
      },
      // The incremental streams' coverage (and that of streams not selected, which the plan never asks
      // about): a full-refresh stream's was dropped when the read began.
      state.coverage,
      // Snapshots are read whole every time in these modes: never skipped, so never partial for the plan.
      new Set(),
    );
    this.#coverage = coverage;
    await coverage.checked(buffer);
    const { websitesRead, websitesSkipped } = coverage.plan;
    if (settings.skipUnchanged)
      logger.info(`read ${websitesRead} websites, skipped ${websitesSkipped} unchanged`, {
        websites_read: websitesRead,
        websites_skipped_unchanged: websitesSkipped,
      });
    return (websiteId: string) => coverage.streamsOf(websiteId) as readonly StreamName[] | undefined;
  }

  /** A website read to its end: the coverage of the streams it read whole rides behind its records. */
  async pagesOf(website: PlannedWebsite, buffer: FlushBuffer): Promise<WebsitePages> {
    return {
      add: (unit) => buffer.add(unit),
      done: async (outcome) => {
        if (outcome !== 'done') return;
        const whole = (stream: string) => !this.#failed.has(`${website.id}\u0000${stream}`);
        await this.#coverage?.read(website, whole, buffer);
      },
    };
  }

  /** Revoked during the read: their records so far stand, and they are removed as an unlisted one is. */
  revoked(websiteIds: readonly string[]): Promise<void> {
    return this.#messages.removeWebsites(websiteIds, this.#startedAt);
  }
}

/** The message, naming the JSON config's keys where `sync`'s names its flags and YAML keys. */
function failureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof MassRemovalError)) return message;
  return message
    .replace('fix source.api_key', 'fix api_key')
    .replace('run again with --allow-mass-removal', 'run again with allow_mass_removal: true in the config');
}

/** What the platform should make of a failure that ended the read. */
function failureType(error: unknown): FailureType {
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 403) return 'config_error';
    return error.workspaceWide ? 'transient_error' : 'system_error';
  }
  if (error instanceof MassRemovalError || error instanceof ConfigError) return 'config_error';
  return 'system_error';
}
