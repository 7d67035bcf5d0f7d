/**
 * The OpenAPI 3.1 document of Public API V2 as we read the spec (part 4): every path, its
 * parameters with their rules, bodies, each response status with its envelope and headers.
 * Served by the sandbox at /public/v2/openapi.json and written to schemas/openapi.json.
 * Where the spec says "not shown" the document says so in the operation's description.
 */
import { analysisIdSchema, promptImportIdSchema, updatedSinceSchema, websiteIdSchema } from './common.ts';
import type { ERROR_CODES } from './error.ts';
import { componentRef, componentSchemas, parameterSchema, type ComponentName } from './openapi-components.ts';
import {
  cursorSchema,
  idempotencyKeySchema,
  includeParamSchema,
  mentionProviderSchema,
  pageLimitSchema,
} from './query.ts';

type Json = Record<string, unknown>;

const V2 = '/public/v2';
const WEBSITE = `${V2}/websites/{website_id}`;

const param = (
  name: string,
  where: 'path' | 'query' | 'header',
  schema: Json,
  description: string,
  required = where === 'path',
): Json => ({
  name,
  in: where,
  required,
  description,
  schema,
});

const PARAMETERS = {
  WebsiteId: param('website_id', 'path', parameterSchema(websiteIdSchema), 'Website identifier.'),
  ImportId: param('import_id', 'path', parameterSchema(promptImportIdSchema), 'Prompt import identifier.'),
  Limit: param('limit', 'query', parameterSchema(pageLimitSchema), 'Page size.'),
  Cursor: param(
    'cursor',
    'query',
    parameterSchema(cursorSchema),
    'Opaque cursor from meta.next_cursor; only valid with the filters it was issued for.',
  ),
  UpdatedSince: param(
    'updated_since',
    'query',
    parameterSchema(updatedSinceSchema),
    "Inclusive lower bound; pass the previous scan's meta.scan_upper_bound verbatim.",
  ),
  Include: param(
    'include',
    'query',
    parameterSchema(includeParamSchema),
    'Breakdowns to embed: providers and/or competitors.',
  ),
  Provider: param('provider', 'query', parameterSchema(mentionProviderSchema), 'Only mentions from this provider.'),
  AnalysisId: param('analysis_id', 'query', parameterSchema(analysisIdSchema), 'Only evidence of this analysis.'),
  IdempotencyKey: param(
    'Idempotency-Key',
    'header',
    parameterSchema(idempotencyKeySchema),
    'Same key and same request replays the operation; same key with another request is 409.',
    true,
  ),
} satisfies Record<string, Json>;
type ParameterName = keyof typeof PARAMETERS;
const paramRef = (name: ParameterName) => ({ $ref: `#/components/parameters/${name}` });

const HEADERS = {
  Location: {
    description: 'Relative path of the receipt: /public/v2/websites/{website_id}/prompt-imports/{import_id}.',
    schema: { type: 'string', pattern: '/public/v2/websites/web_[A-Za-z0-9_-]+/prompt-imports/pim_[A-Za-z0-9_-]+$' },
  },
  RetryAfter: {
    description: 'Seconds (or an HTTP-date) to wait before the next request.',
    schema: { type: 'string' },
  },
  CacheControl: {
    description: 'Receipts are private and never cached.',
    schema: { type: 'string', const: 'private, no-store' },
  },
} satisfies Record<string, Json>;
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

const json = (schema: Json) => ({ 'application/json': { schema } });

/** One reusable response per error status (spec 7); every body is the error envelope. */
const errorResponse = (
  codes: readonly (typeof ERROR_CODES)[number][],
  condition: string,
  retryAfter = false,
): Json => ({
  description: `${condition} (error.code ${codes.join(' or ')})`,
  ...(retryAfter ? { headers: { 'Retry-After': headerRef('RetryAfter') } } : {}),
  content: json(componentRef('ErrorEnvelope')),
});

const ERROR_RESPONSES = {
  400: errorResponse(['invalid_request', 'invalid_cursor'], 'Invalid parameters, body, JSON or cursor'),
  401: errorResponse(['unauthorized'], 'Authentication missing or invalid'),
  403: errorResponse(['forbidden'], 'Key lacks scope or eligibility, or V2 is not enabled for the workspace'),
  404: errorResponse(['not_found'], 'Missing, outside the workspace, revoked, expired receipt, or no first snapshot'),
  409: errorResponse(
    ['idempotency_conflict'],
    'Idempotency-Key reused with a different website, body, item order or validate_only',
  ),
  413: errorResponse(['payload_too_large'], 'Encoded body over 5 MiB'),
  415: errorResponse(['unsupported_media_type'], 'Content type is not application/json'),
  429: errorResponse(['rate_limited'], 'Workspace rate limit exhausted; wait Retry-After', true),
  500: errorResponse(['internal_error'], 'Unexpected failure'),
  503: errorResponse(['temporarily_unavailable'], 'A required dependency is unavailable; wait Retry-After', true),
} satisfies Record<number, Json>;
type ErrorStatus = keyof typeof ERROR_RESPONSES;
const errorRefs = (statuses: readonly ErrorStatus[]) =>
  Object.fromEntries(statuses.map((status) => [status, { $ref: `#/components/responses/${ERROR_NAMES[status]}` }]));
const ERROR_NAMES: Record<ErrorStatus, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'IdempotencyConflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'RateLimited',
  500: 'InternalError',
  503: 'TemporarilyUnavailable',
};

/** "Every read may return the error statuses 400, 401, 403, 404, 429, 500, 503" (spec 4). */
const READ_ERRORS: readonly ErrorStatus[] = [400, 401, 403, 404, 429, 500, 503];
const IMPORT_ERRORS: readonly ErrorStatus[] = [400, 401, 403, 409, 413, 415, 429, 500, 503];

const read = (
  operationId: string,
  summary: string,
  parameters: ParameterName[],
  body: ComponentName,
  description?: string,
): Json => ({
  get: {
    operationId,
    summary,
    ...(description === undefined ? {} : { description }),
    parameters: parameters.map(paramRef),
    responses: { 200: { description: 'Success', content: json(componentRef(body)) }, ...errorRefs(READ_ERRORS) },
  },
});

const LIST = ['Limit', 'Cursor'] as const satisfies ParameterName[];
const FEED = ['WebsiteId', 'UpdatedSince', ...LIST] as const satisfies ParameterName[];

const receiptResponse = (description: string, headers: Json) => ({
  description,
  headers,
  content: json(componentRef('PromptImportReceiptResponse')),
});

const PATHS: Json = {
  [`${V2}/websites`]: read('listWebsites', 'List websites of the workspace', [...LIST], 'WebsiteList'),
  [WEBSITE]: read('getWebsite', 'Get one website', ['WebsiteId'], 'WebsiteResponse'),
  [`${WEBSITE}/analytics`]: read(
    'getLatestAnalytics',
    'Latest finalized analytics snapshot',
    ['WebsiteId', 'Include'],
    'SnapshotResponse',
    '404 not_found until the first snapshot is published: the website is tracked but not yet measured.',
  ),
  [`${WEBSITE}/analytics/history`]: read(
    'listAnalyticsHistory',
    'Immutable analytics history',
    [...FEED],
    'HistoryList',
  ),
  [`${WEBSITE}/mentions`]: read(
    'listMentions',
    'Brand-mention evidence',
    [...FEED, 'Provider', 'AnalysisId'],
    'MentionList',
  ),
  [`${WEBSITE}/citations`]: read(
    'listCitations',
    'Citation evidence',
    [...FEED, 'AnalysisId'],
    'CitationList',
    "The spec does not show this endpoint's query parameters or record fields; we assume the " +
      'evidence-feed parameters of the mentions endpoint, and a record is any JSON object (no field required).',
  ),
  [`${WEBSITE}/prompts:import`]: {
    post: {
      operationId: 'importPrompts',
      summary: 'Accept one append-only, atomic batch of prompts',
      description:
        'Durable acceptance only; poll the receipt at Location. Unknown item fields are rejected (status not shown: 400 assumed).',
      parameters: [paramRef('WebsiteId'), paramRef('IdempotencyKey')],
      requestBody: { required: true, content: json(componentRef('PromptImportRequest')) },
      responses: {
        202: receiptResponse('Accepted: new request, or a replay while pending or processing', {
          Location: headerRef('Location'),
          'Cache-Control': headerRef('CacheControl'),
        }),
        200: receiptResponse('Replay of a terminal operation: the existing receipt, not re-executed', {
          Location: headerRef('Location'),
          'Cache-Control': headerRef('CacheControl'),
        }),
        ...errorRefs(IMPORT_ERRORS),
      },
    },
  },
  [`${WEBSITE}/prompt-imports/{import_id}`]: {
    get: {
      operationId: 'getPromptImport',
      summary: 'Read an import receipt',
      description: 'Poll until succeeded, failed or expiry (404 after expires_at).',
      parameters: [paramRef('WebsiteId'), paramRef('ImportId')],
      responses: {
        200: receiptResponse('The receipt, whatever its status', {
          'Retry-After': {
            ...HEADERS.RetryAfter,
            description: 'Present (2) while pending or processing; absent on terminal receipts.',
          },
        }),
        ...errorRefs(READ_ERRORS),
      },
    },
  },
  [`${V2}/openapi.json`]: {
    get: {
      operationId: 'getOpenApi',
      summary: 'The machine-readable V2 contract',
      responses: {
        200: { description: 'This document', content: json({ type: 'object' }) },
        ...errorRefs(READ_ERRORS),
      },
    },
  },
};

/** The whole document, rebuilt from the zod schemas on every call. */
export function buildOpenApiDocument(): Json {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Public API V2 (as read by aivis)',
      version: '2.0.0-preview',
      description: 'Website analytics, evidence feeds and bulk prompt import, under /public/v2. Private preview.',
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'https://api.example.com' } } }],
    security: [{ bearerAuth: [] }],
    paths: PATHS,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
      },
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([status, response]) => [
          ERROR_NAMES[Number(status) as ErrorStatus],
          response,
        ]),
      ),
      schemas: componentSchemas(),
    },
  };
}
