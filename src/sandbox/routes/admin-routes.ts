/**
 * The control surface outside `/public/v2`, so a shell can drive a running sandbox:
 *   GET    /_sandbox                     data time and request stats
 *   POST   /_sandbox/advance             {"days":1,"hours":2,"minutes":3}
 *   POST   /_sandbox/websites            {"count":2}           -> {"data":{"ids":[...]}}
 *   DELETE /_sandbox/websites/{website_id}
 *   POST   /_sandbox/metric-versions     {"from":"2026-01-03T00:00:00Z","metric_definition_bundle_version":"public_metric_definitions_v13"}
 *   PUT    /_sandbox/faults              a FaultProfile (see http/fault-injector.ts)
 *   DELETE /_sandbox/faults
 * Loopback callers only; never rate-limited or faulted.
 */
import { ApiError } from '../http/api-error.ts';
import type { FaultInjector } from '../http/fault-injector.ts';
import { readJsonBody } from '../http/read-body.ts';
import { ok } from '../http/reply.ts';
import type { RouteContext, RouteModule } from '../router.ts';
import { PRIMARY_WORKSPACE } from '../world/api-keys.ts';
import type { SandboxStats } from '../sandbox-stats.ts';

const MAX_ADMIN_BODY = 64 * 1024;

async function body(ctx: RouteContext): Promise<Record<string, unknown>> {
  const value = await readJsonBody(ctx.req, MAX_ADMIN_BODY);
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  return value as Record<string, unknown>;
}

/** Turns a thrown TypeError/RangeError of the world into a 400 that says what was wrong. */
function asBadRequest<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof TypeError || error instanceof RangeError) throw new ApiError('invalid_request', error.message);
    throw error;
  }
}

export function adminRoutes(faults: FaultInjector, stats: SandboxStats): RouteModule {
  return (env) => [
    {
      name: 'admin.state',
      method: 'GET',
      path: '/_sandbox',
      access: 'admin',
      handle: () =>
        ok({ now: env.clock.now(), websites: env.websites.listed(PRIMARY_WORKSPACE).map((w) => w.id), stats }),
    },
    {
      name: 'admin.advance',
      method: 'POST',
      path: '/_sandbox/advance',
      access: 'admin',
      async handle(ctx) {
        const by = await body(ctx);
        asBadRequest(() => env.clock.advance(by));
        return ok({ now: env.clock.now() });
      },
    },
    {
      name: 'admin.add-websites',
      method: 'POST',
      path: '/_sandbox/websites',
      access: 'admin',
      async handle(ctx) {
        const { count = 1 } = await body(ctx);
        if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 1000) {
          throw new ApiError('invalid_request', 'count must be an integer from 1 to 1000.');
        }
        return ok({ ids: env.websites.add(PRIMARY_WORKSPACE, count as number, env.clock.nowMs()) }, {}, 201);
      },
    },
    {
      name: 'admin.remove-website',
      method: 'DELETE',
      path: '/_sandbox/websites/{website_id}',
      access: 'admin',
      handle(ctx) {
        asBadRequest(() => env.websites.remove(ctx.params.website_id!));
        return ok({ removed: ctx.params.website_id });
      },
    },
    {
      name: 'admin.change-metric-versions',
      method: 'POST',
      path: '/_sandbox/metric-versions',
      access: 'admin',
      async handle(ctx) {
        const change = await body(ctx);
        return ok({ from: asBadRequest(() => env.metricVersions.change(change, env.clock.nowMs())) });
      },
    },
    {
      name: 'admin.set-faults',
      method: 'PUT',
      path: '/_sandbox/faults',
      access: 'admin',
      async handle(ctx) {
        const profile = await body(ctx);
        asBadRequest(() => faults.set(profile as never));
        return ok({ faults: profile });
      },
    },
    {
      name: 'admin.clear-faults',
      method: 'DELETE',
      path: '/_sandbox/faults',
      access: 'admin',
      handle() {
        faults.clear();
        return ok({ faults: null });
      },
    },
  ];
}
