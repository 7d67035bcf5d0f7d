/**
 * The one way aivis reads a website's streams (docs/architecture.md#data-flow, "extract"),
 * shared by `sync`, `backfill`, `verify` and the protocol modes: the registry says which streams
 * a website has and in what order (`websiteStreams`), and each is read as its kind says: a
 * snapshot with one request, a feed scan by scan (`scanFeed`) from the position the caller
 * gives. Every page goes to the caller's sink with the state that covers it; what was read is
 * reported to the caller's observer. The reader needs no destination.
 *
 * - **Fallback.** Once the API refuses a feed's scans the way the stream's `fallback` answers
 *   (citations without `analysis_id`), the reader logs the fallback's notice once and reads that
 *   stream through the fallback's scans for every later website too.
 * - **Containment.** A stream that fails for one website (its requests failed after the
 *   client's retries, or the server broke the scan) is reported (`streamFailed`) and logged, and
 *   the next stream goes on. A website whose feed and own resource both answer 404 was revoked
 *   during the read: its remaining streams are skipped (`websiteRevoked`). Only a website's own
 *   API failures are contained: a key the API refuses, a failure that holds the whole workspace
 *   (a 429 longer than the retry budget, an API that is not answering), a sink failure or a bug
 *   ends the read.
 */
import type { RunEvolution } from '../evolution/evolve-tables.ts';
import type { AivisConfig } from '../../schemas/config.ts';
import type { ApiClient } from '../client/api-client.ts';
import { ApiError } from '../client/api-error.ts';
import type { Logger } from '../log/logger.ts';
import type { StreamState } from '../state/state-entry.ts';
import { type StreamName, streamOptions, type WebsiteStream, websiteStreams } from '../streams/index.ts';
import type { AnyFeedStream, FeedScan, RowContext, ScanFallback } from '../streams/stream.ts';
import type { ContractValidation } from '../contract/contract-validation.ts';
import type { FeedSink } from './durable-unit.ts';
import type { FeedObserver } from './feed-observer.ts';
import type { PlannedWebsite } from './list-websites.ts';
import { readSnapshot } from './read-snapshot.ts';
import { isRevoked } from './revoked-website.ts';
import { scanFeed } from './scan-feed.ts';

export interface FeedReaderOptions {
  readonly client: ApiClient;
  readonly logger: Logger;
  /** Each stream's options (`streams.<name>` of the config). */
  readonly config: AivisConfig;
  readonly observer: FeedObserver;
  /** What records are checked against: the workspace's document in force (docs/served-contract.md#validation). */
  readonly validation: ContractValidation;
  /** The columns schema evolution gave the tables (docs/served-contract.md#schema-evolution): the rows built carry them. */
  readonly evolution?: RunEvolution;
  /** `_run_id` and `_workspace` of the rows built. */
  readonly runId: string;
  readonly workspace: string;
  readonly now: () => Date;
  /** Where a feed scope's scan starts (`stream`, `scope` as in `stateKey`): its saved state, or `INITIAL_STATE`. */
  position(stream: string, scope: string): StreamState;
  /** Read every feed from this `updated_since` and hand on no state (backfill, verify). */
  readonly since?: string;
}

/** One website and the streams read for it (the run's read plan, `src/run/read-plan.ts`); the listing is read by the caller. */
export interface WebsiteRead {
  readonly website: PlannedWebsite;
  /** Read in registry order, whatever order they are given in. */
  readonly streams: readonly StreamName[];
}

/** How a website's read ended: `revoked` means it disappeared during the read and its remaining streams were skipped. */
export type WebsiteOutcome = 'done' | 'revoked';

export class FeedReader {
  readonly #options: FeedReaderOptions;
  /** Feeds the API refused in the way their `fallback` answers: later websites go straight to the fallback's scans. */
  readonly #fallbacks = new Set<string>();

  constructor(options: FeedReaderOptions) {
    this.#options = options;
  }

  /**
   * Reads `read.streams` of one website into `sink`. `signal` stops the scans at their next page (a
   * page already on its way is whole and handed on with its state); the abort reason is thrown.
   */
  async readWebsite(read: WebsiteRead, sink: FeedSink, signal?: AbortSignal): Promise<WebsiteOutcome> {
    const options = this.#options;
    const { website } = read;
    const site: SiteRead = {
      website,
      sink,
      signal,
      context: {
        websiteId: website.id,
        runId: options.runId,
        syncedAt: options.now().toISOString(),
        workspace: options.workspace,
        ...(options.evolution ? { evolution: options.evolution } : {}),
      },
      revoked: false,
    };
    for (const stream of websiteStreams(read.streams)) {
      if (site.revoked) break;
      await this.#readStream(site, stream);
    }
    return site.revoked ? 'revoked' : 'done';
  }

  async #readStream(site: SiteRead, stream: WebsiteStream): Promise<void> {
    if (stream.kind === 'feed') return this.#readFeed(site, stream);
    // A website never analysed has no snapshot yet: asking would be a certain 404.
    if (!site.website.measured) return;
    const { client, config, observer } = this.#options;
    await this.#contained(site, stream.name, async () => {
      const options = streamOptions(stream, config);
      const tables = await readSnapshot({
        client,
        observer,
        stream,
        options,
        context: site.context,
        validation: this.#options.validation,
      });
      await site.sink.add({ tables });
    });
  }

  /** A feed's scans; once the API refuses them the way the stream's fallback answers, its fallback scans for the rest of the read. */
  async #readFeed(site: SiteRead, stream: AnyFeedStream): Promise<void> {
    const { fallback } = stream;
    if (fallback && this.#fallbacks.has(stream.name)) return this.#readFallback(site, stream, fallback);
    for (const scan of stream.scans(streamOptions(stream, this.#options.config))) {
      let refused = false;
      await this.#contained(site, stream.name, async () => {
        try {
          await this.#readScan(site, stream, scan);
        } catch (error) {
          if (!fallback?.applies(error)) throw error;
          refused = true;
          if (!this.#fallbacks.has(stream.name))
            this.#options.logger.info(fallback.notice, { website_id: site.website.id });
          this.#fallbacks.add(stream.name);
        }
      });
      if (refused && fallback) return this.#readFallback(site, stream, fallback);
    }
  }

  /** The fallback's scans of this website, each failure contained on its own. */
  async #readFallback(site: SiteRead, stream: AnyFeedStream, fallback: ScanFallback): Promise<void> {
    let scans: FeedScan[] = [];
    await this.#contained(site, stream.name, async () => {
      scans = await fallback.scans(this.#options.client, site.website.id);
    });
    this.#options.observer.fellBack(stream.name, site.website.id, scans.length);
    for (const scan of scans) await this.#contained(site, stream.name, () => this.#readScan(site, stream, scan));
  }

  #readScan(site: SiteRead, stream: AnyFeedStream, scan: FeedScan): Promise<void> {
    const { client, observer, logger, since, now } = this.#options;
    const scope = site.website.id + scan.scopeSuffix;
    return scanFeed({
      client,
      sink: site.sink,
      observer,
      logger,
      stream,
      scan,
      scope,
      context: site.context,
      validation: this.#options.validation,
      saved: this.#options.position(stream.name, scope),
      since,
      now,
      signal: site.signal,
    });
  }

  /** Runs one stream's work; a failure local to this website is reported (or the website found revoked) and the caller goes on. */
  async #contained(site: SiteRead, stream: string, task: () => Promise<void>): Promise<void> {
    if (site.revoked) return;
    const { client, logger, observer } = this.#options;
    const websiteId = site.website.id;
    try {
      await task();
    } catch (error) {
      if (!isWebsiteLocal(error)) throw error;
      if (await isRevoked(client, websiteId, error)) {
        site.revoked = true;
        observer.websiteRevoked(websiteId);
        logger.warn(
          'website revoked during the run (its feed and the website itself answer 404); its rows read so far are kept and its other streams skipped',
          { website_id: websiteId, stream },
        );
        return;
      }
      observer.streamFailed({ websiteId, stream, error: error.message });
      logger.error('stream failed for this website; what it read before is kept, the rest go on', {
        website_id: websiteId,
        stream,
        error: error.message,
      });
    }
  }
}

/** One website's read in progress. */
interface SiteRead {
  readonly website: PlannedWebsite;
  readonly sink: FeedSink;
  readonly signal: AbortSignal | undefined;
  readonly context: RowContext;
  revoked: boolean;
}

function isWebsiteLocal(error: unknown): error is ApiError {
  return error instanceof ApiError && !error.workspaceWide && error.status !== 401 && error.status !== 403;
}
