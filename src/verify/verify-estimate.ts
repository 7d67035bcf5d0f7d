/**
 * The request count `aivis verify` prints before it reads anything, so a large window is no
 * surprise against the workspace's per-minute budget.
 *
 * Basis: the listing is read whole, `limit=500` a page (spec 4.1, 8). The API has no upper
 * bound on a feed read, so each website's scan from `--since` returns its rows up to now:
 * those in the destination stamped at or after `--since` are the best count known before
 * reading, `limit=500` a page. Every scan costs at least one page (an empty scan still asks),
 * and a website read one scan per analysis (citations where the API requires `analysis_id`)
 * may end each scan on a part page: one more page per extra scan at most. Rows published since
 * the last sync, retries and 429 waits come on top; it is an estimate, never a promise.
 */
import { PAGE_LIMIT } from '../streams/stream.ts';

const PAGE_ROWS = Number(PAGE_LIMIT);

export interface VerifyPlan {
  /** Websites in the destination's listing (`_removed_at` null). */
  readonly listedWebsites: number;
  /** Per website verified: rows the destination holds from `--since` on, and its scans (default 1). */
  readonly websites: readonly { readonly rowsSince: number; readonly scans?: number }[];
}

export interface RequestEstimate {
  readonly websites: number;
  readonly listing_pages: number;
  readonly feed_pages: number;
  readonly requests: number;
}

export function estimateRequests(plan: VerifyPlan): RequestEstimate {
  const listing = Math.max(1, Math.ceil(plan.listedWebsites / PAGE_ROWS));
  const feed = plan.websites.reduce((sum, { rowsSince, scans = 1 }) => {
    return sum + Math.max(scans, Math.ceil(rowsSince / PAGE_ROWS) + scans - 1);
  }, 0);
  return { websites: plan.websites.length, listing_pages: listing, feed_pages: feed, requests: listing + feed };
}

/** e.g. `verify mentions: about 41 requests (1 listing page, 40 feed pages for 5 websites), 1 minute at 90 requests per minute` */
export function describeEstimate(stream: string, estimate: RequestEstimate, requestsPerMinute: number): string {
  const minutes = Math.ceil(estimate.requests / requestsPerMinute);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `verify ${stream}: about ${plural(estimate.requests, 'request')} (${plural(estimate.listing_pages, 'listing page')}, ${plural(estimate.feed_pages, 'feed page')} for ${plural(estimate.websites, 'website')}), ${plural(minutes, 'minute')} at ${requestsPerMinute} requests per minute`;
}
