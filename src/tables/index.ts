import type { TableSpec } from '../destination/table-spec.ts';
import {
  analyticsCompetitorsTable,
  analyticsHistoryTable,
  analyticsLatestTable,
  analyticsProvidersTable,
} from './analytics.ts';
import { rejectedTable, runsTable, stateTable } from './engine.ts';
import { citationsTable, mentionsTable } from './evidence.ts';
import { websitesTable } from './websites.ts';

export * from './analytics.ts';
export * from './engine.ts';
export * from './evidence.ts';
export * from './websites.ts';

export const STREAM_NAMES = ['websites', 'analytics', 'analytics_history', 'mentions', 'citations'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/** The tables each stream writes (design §3). */
export const STREAM_TABLES: Readonly<Record<StreamName, readonly TableSpec[]>> = {
  websites: [websitesTable],
  analytics: [analyticsLatestTable, analyticsProvidersTable, analyticsCompetitorsTable],
  analytics_history: [analyticsHistoryTable],
  mentions: [mentionsTable],
  citations: [citationsTable],
};

/** Tables every sync needs whatever streams it runs. */
export const ENGINE_TABLES: readonly TableSpec[] = [stateTable, runsTable, rejectedTable];
