/**
 * When each analysis of a website happens. Analysis k is measured at `as_of = first + k days`;
 * its snapshot write STARTS 90 minutes later (that start is its publication stamp, the
 * `available_at` of the snapshot and history point) and COMMITS 20 minutes after starting.
 * Between the two the write is in flight: invisible, yet stamped in the past.
 */
import { DAY, MINUTE } from '../timestamps.ts';
import type { WebsiteRecord } from './website-registry.ts';

export const SNAPSHOT_START_DELAY = 90 * MINUTE;
export const SNAPSHOT_COMMIT_LAG = 20 * MINUTE;

/** One analysis run of a website. */
export interface Analysis {
  readonly index: number;
  readonly id: string;
  readonly asOfMs: number;
  /** Publication stamp of the snapshot write (when it started). */
  readonly startMs: number;
  /** When the snapshot write commits and becomes visible. */
  readonly commitMs: number;
}

export function analysisOf(website: WebsiteRecord, index: number): Analysis {
  const asOfMs = website.firstAsOfMs + index * DAY;
  const startMs = asOfMs + SNAPSHOT_START_DELAY;
  return {
    index,
    id: `ana_${website.id.slice(4)}_${index.toString(36).padStart(4, '0')}`,
    asOfMs,
    startMs,
    commitMs: startMs + SNAPSHOT_COMMIT_LAG,
  };
}

/** Analyses measured by `nowMs` (their writes may not have started yet), oldest first. */
export function measuredAnalyses(website: WebsiteRecord, nowMs: number): Analysis[] {
  if (nowMs < website.firstAsOfMs) return [];
  const count = Math.floor((nowMs - website.firstAsOfMs) / DAY) + 1;
  return Array.from({ length: count }, (_, k) => analysisOf(website, k));
}

/** The newest analysis whose snapshot has committed by `nowMs`. */
export function latestCommitted(website: WebsiteRecord, nowMs: number): Analysis | undefined {
  const measured = measuredAnalyses(website, nowMs);
  for (let k = measured.length - 1; k >= 0; k--) {
    if (measured[k]!.commitMs <= nowMs) return measured[k];
  }
  return undefined;
}
