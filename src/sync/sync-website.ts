/**
 * One website's streams in one run (docs/architecture.md#data-flow, "extract"): the registry
 * says which streams a website has and in what order (`websiteStreams`), and each is read as
 * its kind says: a snapshot with one request, a feed scan by scan from its saved state.
 *
 * A stream that fails for this website (its requests failed after the client's retries, or
 * the server broke the scan) is recorded and the next stream goes on; its state stays at its
 * last committed page. A website whose feed and own resource both answer 404 was revoked
 * during the run: its remaining streams are skipped and it is marked removed at the end.
 */
import { ApiError } from '../client/api-error.ts';
import type { StreamState } from '../state/state-entry.ts';
import { stateKey } from '../state/state-store.ts';
import { INITIAL_STATE } from '../state/stream-state.ts';
import { streamOptions, websiteStreams, type WebsiteStream } from '../streams/index.ts';
import type { AnyFeedStream, FeedScan, RowContext, ScanFallback } from '../streams/stream.ts';
import type { FlushBuffer } from './flush-buffer.ts';
import { isRevoked } from './revoked-website.ts';
import type { RunContext } from './run-context.ts';
import { scanFeed } from './scan-feed.ts';
import type { PlannedWebsite } from './sync-listing.ts';
import { syncSnapshot } from './sync-snapshot.ts';

/** What one website's streams share in a run. */
interface WebsiteRun {
  readonly run: RunContext;
  readonly buffer: FlushBuffer;
  /** Saved state by `stateKey`, loaded once for the run. */
  readonly saved: ReadonlyMap<string, StreamState>;
  readonly website: PlannedWebsite;
  readonly context: RowContext;
  /** Stops the scans at their next page (SIGTERM, or a fatal error elsewhere). */
  readonly signal: AbortSignal;
  revoked: boolean;
}

/** `revoked`: the website disappeared during the run (see revoked-website.ts); its remaining streams were skipped. */
export async function syncWebsite(
  run: RunContext,
  buffer: FlushBuffer,
  saved: ReadonlyMap<string, StreamState>,
  website: PlannedWebsite,
  signal: AbortSignal,
): Promise<'done' | 'revoked'> {
  const context = {
    websiteId: website.id,
    runId: run.runId,
    syncedAt: run.now().toISOString(),
    workspace: run.workspace,
    evolution: run.evolution,
  };
  const site: WebsiteRun = { run, buffer, saved, website, context, signal, revoked: false };
  for (const stream of websiteStreams(run.streams)) {
    if (site.revoked) break;
    await readStream(site, stream);
  }
  return site.revoked ? 'revoked' : 'done';
}

async function readStream(site: WebsiteRun, stream: WebsiteStream): Promise<void> {
  const { run, context } = site;
  if (stream.kind === 'feed') return readFeed(site, stream);
  // A website never analysed has no snapshot yet: asking would be a certain 404.
  if (!site.website.measured) return;
  await contained(site, stream.name, async () => {
    const options = streamOptions(stream, run.config);
    const tables = await syncSnapshot({
      client: run.client,
      counters: run.counters,
      stream,
      options,
      context,
      validation: run.contract.validation,
    });
    await site.buffer.add({ tables });
  });
}

/** A feed's scans; once the API refuses them the way the stream's fallback answers, its fallback scans for the rest of the run. */
async function readFeed(site: WebsiteRun, stream: AnyFeedStream): Promise<void> {
  const { run } = site;
  const { fallback } = stream;
  if (fallback && run.fallbacks.has(stream.name)) return readFallback(site, stream, fallback);
  for (const scan of stream.scans(streamOptions(stream, run.config))) {
    let refused = false;
    await contained(site, stream.name, async () => {
      try {
        await readScan(site, stream, scan);
      } catch (error) {
        if (!fallback?.applies(error)) throw error;
        refused = true;
        if (!run.fallbacks.has(stream.name)) run.logger.info(fallback.notice, { website_id: site.website.id });
        run.fallbacks.add(stream.name);
      }
    });
    if (refused && fallback) return readFallback(site, stream, fallback);
  }
}

/** The fallback's scans of this website, each failure recorded on its own. */
async function readFallback(site: WebsiteRun, stream: AnyFeedStream, fallback: ScanFallback): Promise<void> {
  const { run } = site;
  let scans: FeedScan[] = [];
  await contained(site, stream.name, async () => {
    scans = await fallback.scans(run.client, site.website.id);
  });
  // Citations are the one stream with a fallback: the summary names them.
  run.counters.citationsPerAnalysis.websites++;
  run.counters.citationsPerAnalysis.scans += scans.length;
  for (const scan of scans) await contained(site, stream.name, () => readScan(site, stream, scan));
}

function readScan(site: WebsiteRun, stream: AnyFeedStream, scan: FeedScan): Promise<void> {
  const { run } = site;
  const scope = site.website.id + scan.scopeSuffix;
  const saved = run.fullRefresh ? INITIAL_STATE : (site.saved.get(stateKey(stream.name, scope)) ?? INITIAL_STATE);
  return scanFeed({
    client: run.client,
    buffer: site.buffer,
    counters: run.counters,
    logger: run.logger,
    stream,
    scan,
    scope,
    context: site.context,
    validation: run.contract.validation,
    saved,
    since: run.since,
    now: run.now,
    signal: site.signal,
  });
}

/**
 * Runs one stream's work; a failure local to this website is recorded (or the website found
 * revoked) and the caller goes on. Only a website's own API failures are contained: a key the
 * API refuses, a failure that holds the whole workspace (a 429 longer than the retry budget,
 * an API that is not answering), a destination failure or a bug ends the run.
 */
async function contained(site: WebsiteRun, stream: string, task: () => Promise<void>): Promise<void> {
  if (site.revoked) return;
  const { run, website } = site;
  try {
    await task();
  } catch (error) {
    if (!isWebsiteLocal(error)) throw error;
    if (await isRevoked(run.client, website.id, error)) {
      site.revoked = true;
      run.counters.revokedWebsites.push(website.id);
      run.logger.warn(
        'website revoked during the run (its feed and the website itself answer 404); its rows so far are kept and it is marked removed',
        { website_id: website.id, stream },
      );
      return;
    }
    run.counters.failedWebsites.push({ websiteId: website.id, stream, error: error.message });
    run.logger.error('stream failed for this website; its state stays at its last committed page, the rest go on', {
      website_id: website.id,
      stream,
      error: error.message,
    });
  }
}

function isWebsiteLocal(error: unknown): error is ApiError {
  return error instanceof ApiError && !error.workspaceWide && error.status !== 401 && error.status !== 403;
}
