/**
 * The websites of a run's read plan, `concurrency` at a time (a p-queue; the rate limiter
 * bounds the request rate whatever the concurrency). A fatal error or a stop ends every scan at
 * its next page; the pages read until then are whole and valid. The caller flushes them.
 */
import PQueue from 'p-queue';
import type { FeedSink } from '../feed/durable-unit.ts';
import type { FeedReader, WebsiteOutcome, WebsiteRead } from '../feed/feed-reader.ts';
import type { PlannedWebsite } from '../feed/list-websites.ts';

/** Where one website's pages go, told how its read ended. */
export interface WebsitePages extends FeedSink {
  done(outcome: WebsiteOutcome): Promise<void>;
}

export async function readInPool(input: {
  readonly reads: readonly WebsiteRead[];
  readonly reader: FeedReader;
  pagesOf(website: PlannedWebsite): Promise<WebsitePages>;
  readonly concurrency: number;
  readonly signal?: AbortSignal;
}): Promise<void> {
  const abort = new AbortController();
  const signal = input.signal ? AbortSignal.any([abort.signal, input.signal]) : abort.signal;
  const pool = new PQueue({ concurrency: Math.max(1, input.concurrency) });
  let fatal: unknown;
  await pool.addAll(
    input.reads.map((read) => async () => {
      if (signal.aborted) return;
      try {
        const pages = await input.pagesOf(read.website);
        await pages.done(await input.reader.readWebsite(read, pages, signal));
      } catch (error) {
        fatal ??= error;
        // The websites still queued return at once on the aborted signal.
        abort.abort();
      }
    }),
  );
  if (fatal !== undefined) throw fatal;
}
