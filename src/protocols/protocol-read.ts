/**
 * One protocol `read` (Airbyte) or sync (Singer) (docs/protocols.md#how-it-works): the served
 * contract read first (what records are valid under and the columns they carry, which the
 * writer learns before any record), then the listing read whole and reconciled with the known
 * websites of the state (removals, the mass-removal guard, as `sync` does against its tables),
 * then each chosen website's selected streams read by the one feed reader into the engine's
 * flush buffer, whose flushes the `ProtocolSink` writes as records and then state. The rate budget, retries, scan guards, fallbacks and
 * containment are the reader's and the client's, as in `sync`.
 *
 * How each stream ended (docs/protocols.md#failures): a stream that failed for some website
 * (its requests failed after retries, or the server broke the contract) ends incomplete with a
 * `system_error` while the other streams and websites go on; a failure that ends the whole
 * read (a key the API refuses, the mass-removal guard, an API that is not answering) fails
 * every stream, typed for the platform.
 */
import PQueue from 'p-queue';
import type { ApiClient } from '../client/api-client.ts';
import { ApiError } from '../client/api-error.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import { ConfigError } from '../errors.ts';
import { FeedReader } from '../feed/feed-reader.ts';
import { chosenWebsites, listWebsites, type PlannedWebsite } from '../feed/list-websites.ts';
import type { Logger } from '../log/logger.ts';
import { INITIAL_STATE } from '../state/stream-state.ts';
import { websitesStream } from '../streams/index.ts';
import type { StreamName } from '../streams/registry.ts';
import { FlushBuffer } from '../sync/flush-buffer.ts';
import { checkMassRemoval, MassRemovalError, websitesToRemove } from '../sync/reconcile-websites.ts';
import { newRunId } from '../sync/run-sync.ts';
import { websitesTable } from '../tables/index.ts';
import type { ProtocolConfig } from './protocol-config.ts';
import { type ProtocolContract, readProtocolContract } from './protocol-contract.ts';
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
}

export interface ReadOutcome {
  /** Per stream: read through, or not. */
  readonly complete: ReadonlyMap<ProtocolStream, boolean>;
  readonly failures: readonly ReadFailure[];
}

/** One read's pieces: what it reads with and where its flushes go. */
interface Read extends ReadInput {
  readonly runId: string;
  readonly startedAt: string;
  readonly sink: ProtocolSink;
  readonly buffer: FlushBuffer;
  readonly failures: ReadFailure[];
  /** What records are valid under and the columns they carry (docs/served-contract.md). */
  readonly contract: ProtocolContract;
}

export async function readStreams(input: ReadInput): Promise<ReadOutcome> {
  const { selected, state, writer, logger } = input;
  const runId = newRunId(new Date());
  const sink = new ProtocolSink({
    writer,
    state,
    selected: new Map(selected.map(({ stream }) => [stream.name, stream])),
    runId,
    logger,
  });
  const startedAt = new Date().toISOString();
  const contract = await readProtocolContract({
    client: input.client,
    config: input.config,
    runId,
    now: startedAt,
    logger,
  });
  await writer.begin(contract.evolution);
  const read: Read = {
    ...input,
    runId,
    startedAt,
    contract,
    sink,
    buffer: new FlushBuffer({ bounds: PROTOCOL_FLUSH_BOUNDS, commit: (flush) => sink.commit(flush), now: Date.now }),
    failures: [],
  };
  try {
    await readWebsites(read, await readListing(read));
  } catch (error) {
    read.failures.push({ message: failureMessage(error), failureType: failureType(error) });
  }
  const whole = read.failures.some((f) => f.stream === undefined);
  const complete = new Map(
    selected.map(({ stream }) => [stream, !whole && !read.failures.some((f) => f.stream === stream)] as const),
  );
  return { complete, failures: read.failures };
}

/**
 * The listing, read whole and reconciled with the websites the state knows (they stand for the
 * destination's active websites): a listing that would remove too many is refused before
 * anything is written; otherwise its records, then removal records. Returns the websites to read.
 */
async function readListing(read: Read): Promise<PlannedWebsite[]> {
  const { client, state, config, sink, buffer, logger } = read;
  const listing = await listWebsites(client, read.contract.validation);
  const removed = websitesToRemove([...state.knownWebsites.keys()], listing.seenIds);
  checkMassRemoval(removed.length, state.knownWebsites.size, config.allowMassRemoval);
  for (const { error } of listing.rejected)
    logger.warn('record rejected: it is not emitted', { stream: websitesStream.name, scope: '*', error });
  const context = {
    runId: read.runId,
    syncedAt: read.startedAt,
    workspace: DEFAULT_WORKSPACE,
    evolution: read.contract.evolution,
  };
  const rows = listing.websites.map(({ website, raw }) => websitesStream.toRow(website, raw, context));
  await buffer.add({ tables: [{ table: websitesTable, rows }] });
  // Removal records after the listing's: a website that came back is listed again first.
  await buffer.flush();
  await sink.removeWebsites(removed, read.startedAt);
  return chosenWebsites(listing, config.config, undefined);
}

/** Every chosen website's selected streams, a few at a time; a failure that holds the whole read stops the rest at their next page. */
async function readWebsites(read: Read, planned: readonly PlannedWebsite[]): Promise<void> {
  const { selected, state, buffer, failures } = read;
  const resumed = new Set<string>(selected.filter((s) => s.incremental).map(({ stream }) => stream.source));
  const revoked: string[] = [];
  const reader = new FeedReader({
    client: read.client,
    logger: read.logger,
    config: read.config.config,
    streams: [...new Set(selected.map(({ stream }) => stream.source))] as StreamName[],
    runId: read.runId,
    workspace: DEFAULT_WORKSPACE,
    validation: read.contract.validation,
    evolution: read.contract.evolution,
    now: () => new Date(),
    position: (stream, scope) => (resumed.has(stream) ? state.position(stream, scope) : INITIAL_STATE),
    observer: {
      pageRead() {},
      fellBack() {},
      streamFailed(failure) {
        for (const { stream } of selected.filter((s) => s.stream.source === failure.stream))
          failures.push({
            stream,
            message: `website ${failure.websiteId}: ${failure.error}`,
            failureType: 'system_error',
          });
      },
      websiteRevoked: (id) => revoked.push(id),
    },
  });
  const abort = new AbortController();
  let fatal: unknown;
  await new PQueue({ concurrency: CONCURRENCY }).addAll(
    planned.map((website) => async () => {
      if (abort.signal.aborted) return;
      try {
        await reader.readWebsite(website, buffer, abort.signal);
      } catch (error) {
        fatal ??= error;
        abort.abort();
      }
    }),
  );
  await buffer.flush();
  if (fatal !== undefined) throw fatal;
  // Revoked during the read: their records so far stand, and they are removed as an unlisted one is.
  await read.sink.removeWebsites(revoked, read.startedAt);
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
