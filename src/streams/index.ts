import { analyticsHistoryStream } from './analytics-history.ts';
import { citationsStream } from './citations.ts';
import { mentionsStream } from './mentions.ts';
import type { FeedStream } from './stream.ts';

export { analyticsStream } from './analytics.ts';
export { websitesStream } from './websites.ts';

/** The incremental per-website feeds, in the order a website is synced. */
// biome-ignore lint/suspicious/noExplicitAny: each feed has its own record type; the engine treats them alike
export const FEED_STREAMS: readonly FeedStream<any>[] = [analyticsHistoryStream, mentionsStream, citationsStream];
