/**
 * Routes of the sandbox as data: each route module contributes a list, and the server runs
 * every `/public/v2` route through the same pipeline (faults, auth, rate limit, scope),
 * so a module only writes its handler. To add routes, append a module to `routeModules` in
 * `routes/index.ts`.
 */
import type { IncomingMessage } from 'node:http';
import type { Reply } from './http/reply.ts';
import type { SandboxEnv } from './sandbox-env.ts';
import type { ApiKeyModel } from './world/api-keys.ts';

/**
 * Who may call a route. `read`: a key with read scope of a V2-enabled workspace (every read,
 * the OpenAPI document included). `prompts_write`: a V2-eligible, owner-issued key with
 * `prompts_write` of a V2-enabled workspace. `admin`: the `/_sandbox` control surface,
 * loopback callers only, never rate-limited or faulted.
 */
export type Access = 'read' | 'prompts_write' | 'admin';

/** What a handler gets for one request. */
export interface RouteContext {
  readonly req: IncomingMessage;
  readonly url: URL;
  /** Path parameters by name, decoded, e.g. `{ website_id: 'web_x' }`. */
  readonly params: Record<string, string>;
  /** The `meta.request_id` of this response (also the `X-Request-Id` header). */
  readonly requestId: string;
  /** The caller's key: set for `read` and `prompts_write` routes, null for `admin`. */
  readonly key: ApiKeyModel | null;
  readonly env: SandboxEnv;
}

/** One endpoint. */
export interface Route {
  /** Stable name for stats, faults and cursors, e.g. `mentions`. */
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with `{param}` segments, e.g. `/public/v2/websites/{website_id}/prompts:import`. */
  readonly path: string;
  readonly access: Access;
  /** Returns the reply, or throws an `ApiError` that the server renders as the error envelope. */
  handle(ctx: RouteContext): Reply | Promise<Reply>;
}

/** A group of routes built once per sandbox, so it can keep per-server state in its closure. */
export type RouteModule = (env: SandboxEnv) => Route[];

/** The route and path parameters for a request, or undefined. */
export function matchRoute(routes: readonly Route[], method: string, pathname: string) {
  const parts = pathname.split('/');
  for (const route of routes) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((segment, i) => {
      const part = parts[i]!;
      if (segment.startsWith('{') && segment.endsWith('}')) {
        if (part === '') return false;
        try {
          params[segment.slice(1, -1)] = decodeURIComponent(part);
        } catch {
          return false;
        }
        return true;
      }
      return segment === part;
    });
    if (matches) return { route, params };
  }
  return undefined;
}
