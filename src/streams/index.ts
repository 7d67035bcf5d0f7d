export { analyticsStream } from './analytics.ts';
export { analyticsHistoryStream } from './analytics-history.ts';
export { citationsStream } from './citations.ts';
export { mentionsStream } from './mentions.ts';
export * from './registry.ts';
export { websitesStream } from './websites.ts';
