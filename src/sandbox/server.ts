/**
 * The HTTP server of a sandbox (`node:http`). Every `/public/v2` request goes through one
 * pipeline: count it, maybe fault it, authenticate (401), rate-limit the workspace (429),
 * authorize (403), run the route, and render errors as the envelope of spec part 7 with a
 * `meta.request_id` on every response.
 */
import http from 'node:http';
import { createLogger } from '../log/logger.ts';
import { passGate } from './http/access-check.ts';
import { ApiError } from './http/api-error.ts';
import { withMalformedRecord } from './http/malformed-record.ts';
import { deliver } from './http/deliver.ts';
import { withScanFault } from './http/scan-faults.ts';
import { escapeKeys, withEscapedKey, withHugeRecords, withOversizedPage } from './http/hostile-pages.ts';
import type { FaultInjector, FaultProfile } from './http/fault-injector.ts';
import type { RateLimiter } from './http/rate-limiter.ts';
import { type Reply, errorReply } from './http/reply.ts';
import { type Route, type RouteContext, matchRoute } from './router.ts';
import type { SandboxEnv } from './sandbox-env.ts';
import type { SandboxStats } from './sandbox-stats.ts';

/** What the server is assembled from. */
export interface ServerParts {
  env: SandboxEnv;
  routes: readonly Route[];
  faults: FaultInjector;
  limiter: RateLimiter;
  stats: SandboxStats;
}

const FAULT_ERRORS = {
  rate_limited: [
    'rate_limited',
    'Rate limit exceeded for this workspace (injected fault); retry after Retry-After seconds.',
  ],
  internal_error: ['internal_error', 'Unexpected server failure (injected fault).'],
  unavailable: ['temporarily_unavailable', 'A required dependency is unavailable (injected fault); retry later.'],
  not_found: ['not_found', 'The resource does not exist or is not accessible with this key (injected fault).'],
} as const;

/** The error reply of a status fault, or undefined for the other kinds. */
function faultReply(fault: FaultProfile): Reply | undefined {
  if (!(fault.kind in FAULT_ERRORS)) return undefined;
  const [code, message] = FAULT_ERRORS[fault.kind as keyof typeof FAULT_ERRORS];
  const retryAfter = fault.retryAfter ?? (fault.kind === 'rate_limited' ? 1 : undefined);
  return errorReply(
    new ApiError(
      code,
      fault.message ?? message,
      retryAfter === undefined ? {} : { headers: { 'Retry-After': String(retryAfter) } },
    ),
  );
}

/** What a captive portal answers every request with. */
const PORTAL_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Guest Wi-Fi</title></head><body><form method="post" action="/login"><p>Sign in to continue.</p><button>Connect</button></form></body></html>\n';

/**
 * The faults that answer with something other than a V2 body (or nothing at all): true when
 * this one took the request.
 */
function answeredOffContract(fault: FaultProfile | undefined, res: http.ServerResponse, requestId: string): boolean {
  switch (fault?.kind) {
    case 'no_answer':
      // The socket stays open until the client gives up or the sandbox closes.
      return true;
    case 'html_page':
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'X-Request-Id': requestId });
      res.end(PORTAL_PAGE);
      return true;
    case 'no_content':
      res.writeHead(204, { 'X-Request-Id': requestId });
      res.end();
      return true;
    case 'empty_body':
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '0', 'X-Request-Id': requestId });
      res.end();
      return true;
    default:
      return false;
  }
}

export function createSandboxServer(parts: ServerParts): http.Server {
  const logger = createLogger();
  const { env, routes, faults, limiter, stats } = parts;
  let requests = 0;

  async function respond(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const requestId = `req_${String(++requests).padStart(8, '0')}`;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = matchRoute(routes, req.method ?? 'GET', url.pathname);
    const route = match?.route;
    if (route?.access !== 'admin' && url.pathname.startsWith('/public/v2')) {
      stats.requests++;
      const name = route?.name ?? 'unmatched';
      stats.byRoute[name] = (stats.byRoute[name] ?? 0) + 1;
    }
    if (!route) {
      deliver(res, errorReply(new ApiError('not_found', `No endpoint ${req.method} ${url.pathname}.`)), requestId);
      return;
    }
    const cursor = url.searchParams.get('cursor');
    const fault =
      route.access === 'admin' ? undefined : faults.take(route.name, cursor !== null, match.params.website_id);
    if (fault?.kind === 'reset') {
      req.socket.resetAndDestroy();
      return;
    }
    if (answeredOffContract(fault, res, requestId)) return;
    const injected = fault && faultReply(fault);
    if (injected) {
      deliver(res, injected, requestId);
      return;
    }
    let reply: Reply;
    let routeContext: RouteContext | undefined;
    try {
      const key = passGate(route.access, req, { keys: env.keys, limiter, stats });
      routeContext = { req, url, params: match.params, requestId, key, env };
      reply = await route.handle(routeContext);
    } catch (error) {
      if (error instanceof ApiError) reply = errorReply(error);
      else {
        logger.error('aivis sandbox: request failed', {
          request_id: requestId,
          method: req.method,
          path: url.pathname,
          error: (error as Error).stack ?? String(error),
        });
        reply = errorReply(
          new ApiError('internal_error', 'Unexpected sandbox failure; see the sandbox log for this request id.'),
        );
      }
    }
    if (fault !== undefined && routeContext !== undefined)
      reply = await withScanFault(reply, fault, routeContext, route);
    if (!reply.raw) reply = { ...reply, body: env.timestamps.present(reply.body) };
    if (fault?.kind === 'malformed_record') reply = withMalformedRecord(reply, fault);
    if (fault?.kind === 'oversized_page') reply = withOversizedPage(reply, fault, url.searchParams.get('limit'));
    if (fault?.kind === 'huge_records') reply = withHugeRecords(reply, fault);
    if (fault?.kind === 'escaped_key') {
      const key = String(req.headers.authorization).replace(/^Bearer /, '');
      deliver(res, withEscapedKey(reply, fault), requestId, fault, (text) => escapeKeys(text, key));
      return;
    }
    deliver(res, reply, requestId, fault);
  }

  // Cursors may be 22,000 characters (spec part 8): the request line must fit.
  return http.createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    respond(req, res).catch((error: unknown) => {
      logger.error('aivis sandbox: response failed', { error: String(error) });
      res.destroy();
    });
  });
}
