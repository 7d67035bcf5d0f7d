import { analyticsHistoryStream } from './analytics-history.ts';
import { citationsStream } from './citations.ts';
import { mentionsStream } from './mentions.ts';
import type { FeedStream } from './stream.ts';

export { analyticsStream } from './analytics.ts';
export { websitesStream } from './websites.ts';

/** The incremental per-website feeds, in the order a website is synced. */
export const FEED_STREAMS: readonly FeedStream<any>[] = [analyticsHistoryStream, mentionsStream, citationsStream];
