/** `GET /public/v2/websites/{website_id}/analytics` (spec 4.3). */
import { type SnapshotInclude, latestSnapshot } from '../data/latest-snapshot.ts';
import { ApiError } from '../http/api-error.ts';
import { readQuery } from '../http/query-params.ts';
import { ok } from '../http/reply.ts';
import type { RouteModule } from '../router.ts';
import { websiteOf } from './website-of.ts';

/** `include` items in request order, whitespace trimmed, each once. */
export function parseInclude(value: string | undefined): SnapshotInclude[] {
  if (value === undefined) return [];
  return [...new Set(value.split(',').map((item) => item.trim() as SnapshotInclude))];
}

export const analyticsRoute: RouteModule = (env) => [
  {
    name: 'analytics.latest',
    method: 'GET',
    path: '/public/v2/websites/{website_id}/analytics',
    access: 'read',
    handle(ctx) {
      const query = readQuery(ctx.url, ['include']);
      const snapshot = latestSnapshot(env.snapshot, websiteOf(ctx), env.clock.nowMs(), parseInclude(query.include));
      if (!snapshot) throw new ApiError('not_found', 'No analytics snapshot has been published for this website yet.');
      return ok(snapshot.data, snapshot.meta);
    },
  },
];
