/**
 * The three list feeds of a website (spec 4.4-4.6): history, mentions, citations. One scan =
 * the pages of one cursor chain; its first page fixes the scan's ceiling (data time then) and
 * its `scan_upper_bound` (the committed frontier then), and every later page reuses both.
 * Citations (parameters not shown in the spec) take `updated_since` and `analysis_id`, as the
 * bundled OpenAPI document reads 4.6 ("scoped to a website and analysis").
 */
import { type FeedFamily, committedFrontier } from '../feed/feed-batch.ts';
import { type FeedPosition, feedPage } from '../feed/feed-scan.ts';
import { ApiError } from '../http/api-error.ts';
import { bindCursor } from '../http/cursor-codec.ts';
import { type ParamName, readQuery } from '../http/query-params.ts';
import { ok } from '../http/reply.ts';
import type { Route, RouteContext, RouteModule } from '../router.ts';
import { formatTimestamp } from '../timestamps.ts';
import { websiteOf } from './website-of.ts';

/** Scan state a cursor carries. */
interface ScanState {
  /** ceiling: data time of the first page */
  c: number;
  /** the frontier reported as `scan_upper_bound` */
  b: number;
  /** last row returned */
  a: FeedPosition | null;
}

type FilterName = 'updated_since' | 'provider' | 'analysis_id';

/** How one feed route behaves beyond its family. */
interface FeedRouteOptions {
  /** Query filters the route accepts besides `limit` and `cursor`. */
  filters: FilterName[];
  /** Filters a scan must carry (after a cursor's are inherited), else 400 naming them: citations under `citations_require_analysis_id`. */
  required?: readonly FilterName[];
  /** `revoked_mid_scan`: the first website of the workspace is revoked when a scan asks for its second page. */
  revokesMidScan?: boolean;
}

function feedRoute(name: string, path: string, family: FeedFamily, options: FeedRouteOptions): Route {
  const { filters: filterNames, required = [], revokesMidScan = false } = options;
  const allowed: ParamName[] = [...filterNames, 'limit', 'cursor'];
  return {
    name,
    method: 'GET',
    path,
    access: 'read',
    handle(ctx) {
      const query = readQuery(ctx.url, allowed);
      if (revokesMidScan && query.cursor !== undefined) revokeIfFirst(ctx);
      const website = websiteOf(ctx);
      const nowMs = ctx.env.clock.nowMs();
      const batches = family.batches(website, nowMs);
      let filters: Partial<Record<FilterName, string>> = {};
      for (const key of filterNames) if (query[key] !== undefined) filters[key] = query[key];
      const scope = {
        route: name,
        workspaceId: website.workspaceId,
        websiteId: website.id,
        filters: filters as Record<string, string>,
      };
      let state: ScanState;
      if (query.cursor) {
        const payload = bindCursor(ctx.env.cursors, query.cursor, scope);
        filters = payload.filters;
        state = payload.state as unknown as ScanState;
      } else {
        state = { c: nowMs, b: committedFrontier(batches, nowMs), a: null };
      }
      const missing = required.filter((filter) => filters[filter] === undefined);
      if (missing.length > 0) {
        throw new ApiError(
          'invalid_request',
          `Missing query parameters: ${missing.join(', ')}; citations are scoped to a website and analysis.`,
          {
            details: missing.map((field) => ({
              field,
              issue: 'is required: citations are scoped to a website and analysis',
            })),
          },
        );
      }
      const since = filters.updated_since === undefined ? null : ctx.env.timestamps.parse(filters.updated_since);
      const page = feedPage(
        batches,
        {
          nowMs,
          sinceMs: since,
          ceilingMs: state.c,
          after: state.a,
          match: (b) =>
            (!filters.provider || b.provider === filters.provider) &&
            (!filters.analysis_id || b.analysisId === filters.analysis_id),
        },
        Number(query.limit ?? 100),
      );
      // has_more_false_with_cursor: the last page points past itself too (an empty page).
      const cursorOnLast = ctx.env.variants.has('has_more_false_with_cursor');
      const next =
        page.hasMore || cursorOnLast
          ? ctx.env.cursors.encode({
              ...scope,
              filters: filters as Record<string, string>,
              state: { ...state, a: page.last ?? state.a },
            })
          : null;
      return ok(page.rows, { has_more: page.hasMore, next_cursor: next, scan_upper_bound: formatTimestamp(state.b) });
    },
  };
}

/** Revokes the path's website if it is the sandbox's first (removed at once, so this very request is a 404). */
function revokeIfFirst(ctx: RouteContext): void {
  const website = websiteOf(ctx);
  if (website.seq === 1) ctx.env.websites.remove(website.id);
}

export const feedRoutes: RouteModule = (env) => [
  feedRoute('analytics.history', '/public/v2/websites/{website_id}/analytics/history', env.feeds.history, {
    filters: ['updated_since'],
  }),
  feedRoute('mentions', '/public/v2/websites/{website_id}/mentions', env.feeds.mentions, {
    filters: ['updated_since', 'provider', 'analysis_id'],
    revokesMidScan: env.variants.has('revoked_mid_scan'),
  }),
  feedRoute('citations', '/public/v2/websites/{website_id}/citations', env.feeds.citations, {
    filters: ['updated_since', 'analysis_id'],
    required: env.variants.has('citations_require_analysis_id') ? ['analysis_id'] : [],
  }),
];
