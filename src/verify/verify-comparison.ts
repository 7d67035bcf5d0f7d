/**
 * `aivis verify`: what the API holds for a closed window against what the destination holds
 * for the same window, per website, by row id (`id` for mentions and citations, `analysis_id`
 * for history points). Both sides are windowed by `available_at`, the publication stamp
 * `updated_since` reads by (docs/architecture.md#state-rules).
 */
import { microsecondTimestamp } from '../destination/timestamp-micros.ts';
import { ExitCode } from '../errors.ts';

/** Ids listed per website and kind of difference; counts are always whole. */
export const MAX_LISTED_IDS = 100;

/** `--since` and `--until` (defaulting to the frontier: the window is closed, nothing in it can still arrive). */
export interface VerifyWindow {
  readonly since: string;
  readonly until: string;
}

export interface WebsiteIds {
  readonly api: Iterable<string>;
  readonly destination: Iterable<string>;
}

export interface WebsiteDifference {
  readonly website_id: string;
  readonly api_rows: number;
  readonly destination_rows: number;
  /** In the API, not in the destination: what `--repair` upserts. */
  readonly missing: number;
  /** In the destination, not in the API (deleted or revoked upstream, or loaded from elsewhere). */
  readonly extra: number;
  /** Sorted, at most `MAX_LISTED_IDS`. */
  readonly missing_ids: readonly string[];
  readonly extra_ids: readonly string[];
}

export interface VerifyComparison<Website extends WebsiteDifference = WebsiteDifference> {
  /** Every website verified, in id order. */
  readonly websites: readonly Website[];
  readonly missing: number;
  readonly extra: number;
  readonly equal: boolean;
}

/**
 * Whether a row stamped `availableAt` lies in the window, both ends inclusive. Compared at the
 * microsecond, as the destination stores it, so an API stamp with nanoseconds falls on the
 * same side as its stored row.
 */
export function withinWindow(availableAt: string, window: VerifyWindow): boolean {
  const stamp = microsecondTimestamp(availableAt);
  return microsecondTimestamp(window.since) <= stamp && stamp <= microsecondTimestamp(window.until);
}

/** One website's window compared; only the capped lists outlive it, so websites are compared one at a time. */
export function compareWebsite(websiteId: string, ids: WebsiteIds): WebsiteDifference {
  // A boundary row read twice (inclusive updated_since) is one row.
  const api = new Set(ids.api);
  const destination = new Set(ids.destination);
  const missing = [...api].filter((id) => !destination.has(id)).sort();
  const extra = [...destination].filter((id) => !api.has(id)).sort();
  return {
    website_id: websiteId,
    api_rows: api.size,
    destination_rows: destination.size,
    missing: missing.length,
    extra: extra.length,
    missing_ids: missing.slice(0, MAX_LISTED_IDS),
    extra_ids: extra.slice(0, MAX_LISTED_IDS),
  };
}

export function combineWebsites<Website extends WebsiteDifference>(
  differences: readonly Website[],
): VerifyComparison<Website> {
  const websites = [...differences].sort((a, b) =>
    a.website_id < b.website_id ? -1 : a.website_id > b.website_id ? 1 : 0,
  );
  const missing = websites.reduce((sum, w) => sum + w.missing, 0);
  const extra = websites.reduce((sum, w) => sum + w.extra, 0);
  return { websites, missing, extra, equal: missing === 0 && extra === 0 };
}

/**
 * 0 when both sides hold the same rows and every website chosen could be read; 3 when verify
 * found differences (repaired or not) or a website's reads failed (`failed`: those websites).
 */
export function verifyExitCode(outcome: {
  readonly equal: boolean;
  readonly failed?: readonly unknown[];
  readonly never_synced?: readonly unknown[];
}): typeof ExitCode.Success | typeof ExitCode.Partial | typeof ExitCode.Stale {
  if (!outcome.equal || (outcome.failed ?? []).length > 0) return ExitCode.Partial;
  // A website in scope never synced: nothing vouches for it (3 wins: a difference is worse news).
  return (outcome.never_synced ?? []).length > 0 ? ExitCode.Stale : ExitCode.Success;
}
