/** The path's website in the caller's workspace, or the one 404 every hidden id gets. */
import { notFound } from '../http/api-error.ts';
import { checkWebsiteId } from '../http/query-params.ts';
import type { RouteContext } from '../router.ts';
import type { WebsiteRecord } from '../world/website-registry.ts';

export function websiteOf(ctx: RouteContext): WebsiteRecord {
  const id = ctx.params.website_id ?? '';
  checkWebsiteId(id);
  const website = ctx.key && ctx.env.websites.find(ctx.key.workspaceId, id);
  if (!website) throw notFound();
  return website;
}
