/**
 * The write side of V2 over HTTP (spec 4.7, 4.8), plus two admin controls for tests and demos:
 *   POST   /public/v2/websites/{website_id}/prompts:import
 *   GET    /public/v2/websites/{website_id}/prompt-imports/{import_id}
 *   PUT    /_sandbox/websites/{website_id}/prompts   {"prompt_limit":3,"active":["..."],"inactive":["..."]}
 *   PUT    /_sandbox/imports/faults                  {"code":"commit_conflict","count":1}
 *   DELETE /_sandbox/imports/faults
 * Auth, rate limit, request ids and HTTP faults come from the shared route pipeline.
 */
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { IMPORT_LIMITS } from '../../../schemas/import-limits.ts';
import { ApiError, notFound } from '../http/api-error.ts';
import { readBody, readJsonBody } from '../http/read-body.ts';
import { ok, type Reply } from '../http/reply.ts';
import type { RouteContext, RouteModule } from '../router.ts';
import { websiteOf } from '../routes/website-of.ts';
import type { ImportFaultCode } from './import-faults.ts';
import { receiptPath, type ImportOperation } from './import-operation.ts';
import { renderReceipt } from './import-receipt.ts';
import { withExtraFields } from './receipt-extra-fields.ts';
import type { SandboxVariant } from '../variants.ts';
import { parseImportRequest } from './import-request.ts';
import { ImportService, type ImportCaller } from './import-service.ts';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{16,255}$/;
const FAULT_CODES: readonly ImportFaultCode[] = [
  'classification_unavailable',
  'commit_conflict',
  'processing_deadline_exceeded',
  'internal_processing_error',
];
/** Codes the spec does not list, for the `receipts_with_extra_fields` variant. */
const VARIANT_FAULT_CODES: readonly ImportFaultCode[] = ['quota_window_exhausted'];

function checkMediaType(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ApiError(
      'unsupported_media_type',
      `Content-Type must be application/json (got ${type ? JSON.stringify(type.slice(0, 100)) : 'none'}).`,
    );
  }
}

function idempotencyKeyOf(req: IncomingMessage): string {
  const key = req.headers['idempotency-key'];
  if (typeof key === 'string' && IDEMPOTENCY_KEY.test(key)) return key;
  throw new ApiError('invalid_request', 'The Idempotency-Key header is required: 16 to 255 visible ASCII characters.', {
    details: [
      {
        field: 'Idempotency-Key',
        issue: key === undefined ? 'is missing' : 'must be 16 to 255 visible ASCII characters',
      },
    ],
  });
}

async function parseBody(req: IncomingMessage) {
  const bytes = await readBody(req, IMPORT_LIMITS.maxBodyBytes);
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new ApiError(
      'invalid_request',
      `The request body is not valid JSON: ${(error as Error).message}`.slice(0, 1024),
    );
  }
  const parsed = parseImportRequest(body);
  if (!parsed.request)
    throw new ApiError('invalid_request', 'The import request is invalid; see details.', { details: parsed.details });
  return parsed.request;
}

/**
 * Receipts are private and must not be cached; non-terminal ones say when to poll again.
 * `runningStatus`: 202 for a POST whose operation is still running, 200 for a GET.
 */
function receiptReply(
  op: ImportOperation,
  now: number,
  runningStatus: 200 | 202,
  variants: ReadonlySet<SandboxVariant>,
): Reply {
  const rendered = renderReceipt(op, now);
  const { terminal } = rendered;
  const data = variants.has('receipts_with_extra_fields') ? withExtraFields(rendered.data) : rendered.data;
  return {
    ...ok(data, {}, terminal ? 200 : runningStatus),
    headers: { 'Cache-Control': 'private, no-store', ...(terminal ? {} : { 'Retry-After': '2' }) },
  };
}

const callerOf = (ctx: RouteContext): ImportCaller => ({
  workspaceId: ctx.key!.workspaceId,
  lineageId: ctx.key!.lineageId,
});

export const importRoutes: RouteModule = (env) => {
  // Import processing follows the virtual data clock, plus, on a pinned clock, the wall time
  // since start, so a sandbox left running (`aivis sandbox --clock T`) finishes imports on its
  // own while a test that advances the data clock decides every phase change. A clock that
  // follows this machine's already moves by itself.
  const startedAt = performance.now();
  const wallSinceStart = () => (env.clock.followsWallClock ? 0 : Math.floor(performance.now() - startedAt));
  const service = new ImportService({ now: () => env.clock.nowMs() + wallSinceStart() });
  return [
    {
      name: 'prompts.import',
      method: 'POST',
      path: '/public/v2/websites/{website_id}/prompts:import',
      access: 'prompts_write',
      async handle(ctx) {
        const website = websiteOf(ctx);
        checkMediaType(ctx.req);
        const key = idempotencyKeyOf(ctx.req);
        const request = await parseBody(ctx.req);
        const result = service.submit(callerOf(ctx), website.id, key, request);
        if (result.kind === 'conflict') {
          throw new ApiError(
            'idempotency_conflict',
            'This Idempotency-Key was already used with a different request (website, body, item order or validate_only); no second operation was created.',
          );
        }
        const reply = receiptReply(result.operation, service.currentTime(), 202, env.variants);
        return { ...reply, headers: { ...reply.headers, Location: receiptPath(result.operation) } };
      },
    },
    {
      name: 'prompt-imports.get',
      method: 'GET',
      path: '/public/v2/websites/{website_id}/prompt-imports/{import_id}',
      access: 'prompts_write',
      handle(ctx) {
        const website = websiteOf(ctx);
        const op = service.find(callerOf(ctx), website.id, ctx.params.import_id ?? '');
        if (!op) throw notFound('prompt import');
        return receiptReply(op, service.currentTime(), 200, env.variants);
      },
    },
    {
      name: 'admin.seed-prompts',
      method: 'PUT',
      path: '/_sandbox/websites/{website_id}/prompts',
      access: 'admin',
      async handle(ctx) {
        const body = (await readJsonBody(ctx.req, IMPORT_LIMITS.maxBodyBytes)) as {
          prompt_limit?: unknown;
          active?: unknown;
          inactive?: unknown;
        };
        const texts = (value: unknown) =>
          Array.isArray(value) && value.every((t) => typeof t === 'string')
            ? value
            : value === undefined
              ? []
              : undefined;
        const active = texts(body.active);
        const inactive = texts(body.inactive);
        const limit = body.prompt_limit;
        if (!active || !inactive || (limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 0))) {
          throw new ApiError(
            'invalid_request',
            'Send {"prompt_limit": <integer >= 0>, "active": [texts], "inactive": [texts]}; every key is optional.',
          );
        }
        service.prompts.seed(ctx.params.website_id!, {
          active,
          inactive,
          ...(limit === undefined ? {} : { promptLimit: limit as number }),
        });
        const websiteId = ctx.params.website_id!;
        return ok({
          website_id: websiteId,
          active_count: service.prompts.activeCount(websiteId),
          prompt_limit: service.prompts.promptLimit(websiteId),
        });
      },
    },
    {
      name: 'admin.import-faults',
      method: 'PUT',
      path: '/_sandbox/imports/faults',
      access: 'admin',
      async handle(ctx) {
        const { code, count = 1 } = (await readJsonBody(ctx.req, 4096)) as { code?: unknown; count?: unknown };
        const codes = env.variants.has('receipts_with_extra_fields')
          ? [...FAULT_CODES, ...VARIANT_FAULT_CODES]
          : FAULT_CODES;
        if (!codes.includes(code as ImportFaultCode) || !Number.isInteger(count) || (count as number) < 1) {
          throw new ApiError(
            'invalid_request',
            `Send {"code": one of ${codes.join(', ')}, "count": a positive integer}.`,
          );
        }
        service.faults.failNext(code as ImportFaultCode, count as number);
        return ok({ code, count });
      },
    },
    {
      name: 'admin.clear-import-faults',
      method: 'DELETE',
      path: '/_sandbox/imports/faults',
      access: 'admin',
      handle() {
        service.faults.clear();
        return ok({ cleared: true });
      },
    },
  ];
};
