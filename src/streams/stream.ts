/**
 * What a stream is: where its records come from and how a record becomes rows. Streams know
 * nothing of pagination, state or destinations; the sync engine composes them with the API
 * client and the flush buffer.
 */
import type { z } from 'zod';
import type { AivisConfig } from '../../schemas/config.ts';
import type { Row, TableSpec } from '../destination/table-spec.ts';
import type { StreamName } from '../tables/index.ts';

export interface RowContext {
  /** The website the request was made for (the path's `website_id`). */
  readonly websiteId: string;
  readonly runId: string;
  readonly syncedAt: string;
}

/** A record that passed its schema but cannot be loaded; it goes to `_aivis_rejected`. */
export class RecordRejection extends Error {}

/** One scan of a feed for one website: its own query filters and its own saved state. */
export interface FeedScan {
  /** Suffix of the state scope after the website id ('' for an unfiltered scan). */
  readonly scopeSuffix: string;
  readonly query: Readonly<Record<string, string>>;
}

/** A list endpoint read incrementally per website with `updated_since` and cursors. */
export interface FeedStream<T> {
  readonly name: StreamName;
  readonly table: TableSpec;
  readonly recordSchema: z.ZodType<T>;
  path(websiteId: string): string;
  /** The scans this stream needs per website under this config. */
  scans(config: AivisConfig): FeedScan[];
  /** Throws `RecordRejection` for a record that is valid JSON-wise but unusable. */
  toRow(record: T, raw: unknown, context: RowContext): Row;
}

/** The columns every data row carries (design §3). `_raw` is the record as the API sent it. */
export function loadColumns(raw: unknown, context: RowContext): Row {
  return { _synced_at: context.syncedAt, _run_id: context.runId, _raw: JSON.stringify(raw) };
}

/** JSON text of a value, for `json` columns. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** The website a record names must be the website it was requested for. */
export function requireSameWebsite(recordWebsiteId: string, context: RowContext): void {
  if (recordWebsiteId !== context.websiteId) {
    throw new RecordRejection(
      `website_id: ${recordWebsiteId} does not match the requested website ${context.websiteId}`,
    );
  }
}

/** The default scan of a feed: no filter besides the frontier. */
export const UNFILTERED_SCAN: readonly FeedScan[] = [{ scopeSuffix: '', query: {} }];
