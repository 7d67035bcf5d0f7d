/** `GET /public/v2/websites` and `GET /public/v2/websites/{website_id}` (spec 4.1, 4.2). */
import { bindCursor } from '../http/cursor-codec.ts';
import { readQuery } from '../http/query-params.ts';
import { ok } from '../http/reply.ts';
import type { RouteModule } from '../router.ts';
import { websiteOf } from './website-of.ts';

const LIST = 'websites.list';

export const websitesRoutes: RouteModule = (env) => [
  {
    name: LIST,
    method: 'GET',
    path: '/public/v2/websites',
    access: 'read',
    handle(ctx) {
      const query = readQuery(ctx.url, ['limit', 'cursor']);
      const workspaceId = ctx.key!.workspaceId;
      const scope = { route: LIST, workspaceId, websiteId: null, filters: {} };
      // The listing resumes after the last website's position, so a website removed
      // mid-scan simply stops appearing and none is skipped.
      const afterSeq = query.cursor ? Number(bindCursor(env.cursors, query.cursor, scope).state.afterSeq) : 0;
      const limit = Number(query.limit ?? 100);
      const listed = env.websites.listed(workspaceId, afterSeq);
      const page = listed.slice(0, limit);
      const hasMore = listed.length > limit;
      const nowMs = env.clock.nowMs();
      // has_more_false_with_cursor: the last page points past itself too (an empty page).
      const withCursor = hasMore || env.variants.has('has_more_false_with_cursor');
      return ok(
        page.map((w) => env.website(w, nowMs)),
        {
          has_more: hasMore,
          next_cursor: withCursor
            ? env.cursors.encode({ ...scope, state: { afterSeq: page.at(-1)?.seq ?? afterSeq } })
            : null,
        },
      );
    },
  },
  {
    name: 'websites.get',
    method: 'GET',
    path: '/public/v2/websites/{website_id}',
    access: 'read',
    handle(ctx) {
      readQuery(ctx.url, []);
      return ok(env.website(websiteOf(ctx), env.clock.nowMs()));
    },
  },
];
