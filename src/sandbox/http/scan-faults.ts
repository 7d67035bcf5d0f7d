/**
 * Faults that rewrite a successful list page so it breaks (or strains) the pagination contract
 * of spec 4.10: a client proves it notices a scan that cannot end, repeats itself, or reports
 * a bound or cursor it must not keep. Each takes the route's honest reply; error replies and
 * non-list bodies pass through unchanged.
 */
import { MAX_CURSOR_LENGTH } from '../../../schemas/query.ts';
import type { Route, RouteContext } from '../router.ts';
import type { FaultProfile } from './fault-injector.ts';
import type { Reply } from './reply.ts';

type ListBody = { data: unknown[]; meta: Record<string, unknown> };

/** The bound `bound_future` reports: decades ahead of any data clock. */
export const FUTURE_BOUND = '2099-01-01T00:00:00Z';

function listBody(reply: Reply): ListBody | undefined {
  const body = reply.body as Partial<ListBody>;
  if (reply.status !== 200 || !Array.isArray(body.data) || body.meta === undefined) return undefined;
  return body as ListBody;
}

function withMeta(reply: Reply, change: (meta: Record<string, unknown>) => Record<string, unknown> | undefined) {
  const body = listBody(reply);
  const meta = body && change(body.meta);
  return body && meta ? { ...reply, body: { ...body, meta } } : reply;
}

/** The cursor of this request's scan rewound to its first page (the feed routes keep the last row in `state.a`). */
function rewound(ctx: RouteContext, cursor: string): string {
  const payload = ctx.env.cursors.decode(cursor);
  return ctx.env.cursors.encode({ ...payload, state: { ...payload.state, a: null } });
}

/**
 * The reply of a list request under a scan fault. `cursor` is the one the request sent (the
 * continuation faults leave first pages alone); `again` runs the route once more for another cursor.
 */
export async function withScanFault(
  reply: Reply,
  fault: FaultProfile,
  ctx: RouteContext,
  route: Route,
): Promise<Reply> {
  const cursor = ctx.url.searchParams.get('cursor');
  switch (fault.kind) {
    case 'empty_page':
      // Legal: an empty page that points back at the same position.
      if (cursor === null || listBody(reply) === undefined) return reply;
      return { ...reply, body: { data: [], meta: { ...listBody(reply)!.meta, has_more: true, next_cursor: cursor } } };
    case 'cursorless_page':
      return withMeta(reply, (meta) => (meta.has_more === true ? { ...meta, next_cursor: null } : undefined));
    case 'same_cursor':
      // A page of records that says "more" and hands back the cursor just sent.
      return withMeta(reply, (meta) =>
        cursor !== null && meta.has_more === true ? { ...meta, next_cursor: cursor } : undefined,
      );
    case 'cursor_loop':
      // A page that points back at the scan's first page: following it, the scan never ends.
      return withMeta(reply, (meta) =>
        cursor !== null && meta.has_more === true ? { ...meta, next_cursor: rewound(ctx, cursor) } : undefined,
      );
    case 'repeat_page': {
      // Fresh cursors onward, but the records of the scan's first page again.
      const body = listBody(reply);
      if (cursor === null || body === undefined) return reply;
      const url = new URL(ctx.url);
      url.searchParams.set('cursor', rewound(ctx, cursor));
      const first = listBody(await route.handle({ ...ctx, url }));
      return first ? { ...reply, body: { ...body, data: first.data } } : reply;
    }
    case 'bound_future':
      return withMeta(reply, (meta) => ({ ...meta, scan_upper_bound: FUTURE_BOUND }));
    case 'long_cursor': // one character more than the spec's longest cursor
      return withMeta(reply, (meta) =>
        typeof meta.next_cursor === 'string'
          ? { ...meta, next_cursor: meta.next_cursor.padEnd(MAX_CURSOR_LENGTH + 1, 'A') }
          : undefined,
      );
    default:
      return reply;
  }
}

/**
 * `duplicate_meta_keys`, applied to the serialized body: a page with more to come says
 * `"has_more":true,"has_more":false`, which a parser keeping the last key reads as the end.
 */
export function withDuplicateMetaKeys(text: string): string {
  return text.replace('"has_more":true', '"has_more":true,"has_more":false');
}
