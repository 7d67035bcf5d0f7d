import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedFiles } from '../../scripts/generate.ts';
import { MAX_COUNT } from '../../schemas/keys.ts';

const committed = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
type Json = Record<string, any>;
const doc = JSON.parse(committed('schemas/openapi.json')) as Json;

const READ_ERRORS = ['400', '401', '403', '404', '429', '500', '503'];
/** Spec part 4, written out by hand from the spec so the document is checked against it, not against itself. */
const SPEC_OPERATIONS: [method: string, path: string, statuses: string[]][] = [
  ['get', '/public/v2/websites', ['200', ...READ_ERRORS]],
  ['get', '/public/v2/websites/{website_id}', ['200', ...READ_ERRORS]],
  ['get', '/public/v2/websites/{website_id}/analytics', ['200', ...READ_ERRORS]],
  ['get', '/public/v2/websites/{website_id}/analytics/history', ['200', ...READ_ERRORS]],
  ['get', '/public/v2/websites/{website_id}/mentions', ['200', ...READ_ERRORS]],
  ['get', '/public/v2/websites/{website_id}/citations', ['200', ...READ_ERRORS]],
  [
    'post',
    '/public/v2/websites/{website_id}/prompts:import',
    ['202', '200', '400', '401', '403', '409', '413', '415', '429', '500', '503'],
  ],
  ['get', '/public/v2/websites/{website_id}/prompt-imports/{import_id}', ['200', ...READ_ERRORS]],
  ['get', '/public/v2/openapi.json', ['200', ...READ_ERRORS]],
];

/** Follows a local `$ref` (`#/components/...`) in the document. */
function resolve(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const target = (node.$ref as string)
    .slice(2)
    .split('/')
    .reduce<Json | undefined>((at, key) => at?.[key], doc);
  if (target === undefined) throw new Error(`dangling $ref ${node.$ref}`);
  return resolve(target);
}

function parameter(path: string, method: string, name: string): Json {
  const found = (doc.paths[path][method].parameters as Json[]).map(resolve).find((p) => p.name === name);
  if (found === undefined) throw new Error(`${method} ${path} has no parameter ${name}`);
  return found;
}

describe('generated files are current', () => {
  it.each(Object.entries(generatedFiles()))(
    '%s equals what scripts/generate.ts produces (run npm run schemas)',
    (path, contents) => {
      expect(committed(path)).toBe(contents);
    },
  );
});

describe('openapi.json covers spec part 4', () => {
  it('is OpenAPI 3.1 with the JSON Schema 2020-12 dialect and bearer auth on every operation', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it("has exactly the spec's paths and methods", () => {
    const actual = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(actual.sort()).toEqual(SPEC_OPERATIONS.map(([method, path]) => `${method} ${path}`).sort());
  });

  it.each(SPEC_OPERATIONS)('%s %s answers exactly the statuses %j, each with a JSON body', (method, path, statuses) => {
    const responses = doc.paths[path][method].responses as Json;
    expect(Object.keys(responses).sort()).toEqual([...statuses].sort());
    for (const status of statuses) expect(resolve(responses[status]).content['application/json'].schema).toBeDefined();
  });

  it('every error status carries the error envelope; 429 and 503 carry Retry-After', () => {
    for (const [method, path, statuses] of SPEC_OPERATIONS) {
      for (const status of statuses.filter((s) => s >= '400')) {
        const response = resolve(doc.paths[path][method].responses[status]);
        expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
        if (status === '429' || status === '503') expect(Object.keys(response.headers)).toEqual(['Retry-After']);
      }
    }
  });

  it('the import documents Idempotency-Key, its body, Location and Cache-Control', () => {
    const post = doc.paths['/public/v2/websites/{website_id}/prompts:import'].post;
    expect(parameter('/public/v2/websites/{website_id}/prompts:import', 'post', 'Idempotency-Key')).toMatchObject({
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[\\x21-\\x7E]{16,255}$' },
    });
    expect(post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PromptImportRequest',
    });
    for (const status of ['200', '202']) {
      expect(Object.keys(post.responses[status].headers).sort()).toEqual(['Cache-Control', 'Location']);
      expect(resolve(post.responses[status].headers['Cache-Control']).schema.const).toBe('private, no-store');
    }
    const receipt = doc.paths['/public/v2/websites/{website_id}/prompt-imports/{import_id}'].get.responses['200'];
    expect(Object.keys(receipt.headers)).toEqual(['Retry-After']);
  });

  it("query parameters carry the spec's ranges and patterns", () => {
    const mentions = '/public/v2/websites/{website_id}/mentions';
    expect(parameter(mentions, 'get', 'limit').schema).toEqual({
      default: 100,
      type: 'integer',
      minimum: 1,
      maximum: 500,
    });
    expect(parameter(mentions, 'get', 'cursor').schema).toEqual({ type: 'string', minLength: 1, maxLength: 22000 });
    expect(parameter(mentions, 'get', 'provider').schema.enum).toEqual([
      'chatgpt',
      'gemini',
      'perplexity',
      'google_ai_overview',
    ]);
    expect(parameter(mentions, 'get', 'analysis_id').schema).toEqual({
      type: 'string',
      maxLength: 128,
      pattern: '^ana_[A-Za-z0-9_-]+$',
    });
    expect(parameter(mentions, 'get', 'website_id')).toMatchObject({
      in: 'path',
      required: true,
      schema: { pattern: '^web_[A-Za-z0-9_-]+$' },
    });
    const since = new RegExp(parameter(mentions, 'get', 'updated_since').schema.pattern);
    expect(['2026-01-31T12:00Z', '2026-01-31T12:00:05.25Z'].every((value) => since.test(value))).toBe(true);
    expect(['2026-02-30T12:00Z', '2026-01-31T12:00:05'].some((value) => since.test(value))).toBe(false);
    const include = new RegExp(
      parameter('/public/v2/websites/{website_id}/analytics', 'get', 'include').schema.pattern,
    );
    expect(include.test(' providers , competitors ')).toBe(true);
    expect(include.test('providers,trends')).toBe(false);
  });

  it('component schemas carry the documented rules (from zod)', () => {
    expect(resolve({ $ref: '#/components/schemas/Count' })).toEqual({
      anyOf: [{ type: 'integer', minimum: 0, maximum: MAX_COUNT }, { type: 'null' }],
    });
    const website = doc.components.schemas.Website;
    expect(website.required).toEqual(['id', 'domain_url', 'country', 'language', 'industry_niche', 'last_analysis_at']);
    expect(website.additionalProperties).toEqual({});
    expect(doc.components.schemas.PromptImportItem.additionalProperties).toBe(false);
    expect(doc.components.schemas.PromptImportItem.properties.prompt_text).toEqual({
      type: 'string',
      minLength: 5,
      maxLength: 2000,
    });
    expect(doc.components.schemas.Counts.required).toHaveLength(13);
  });

  it('has no dangling $ref', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) key === '$ref' ? refs.push(value as string) : walk(value);
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) expect(() => resolve({ $ref: ref }), ref).not.toThrow();
  });
});

describe('config.schema.json', () => {
  const schema = JSON.parse(committed('schemas/config.schema.json')) as Json;

  it('is a titled draft 2020-12 schema that refuses unknown keys and requires source or sources', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('aivis configuration');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toBeUndefined();
    expect(schema.oneOf).toEqual([{ required: ['source'] }, { required: ['sources'] }]);
    expect(Object.keys(schema.properties)).toEqual([
      'source',
      'sources',
      'destination',
      'streams',
      'schema_evolution',
      'schema_evolution_max_columns',
      'websites',
      'state',
      'openlineage',
      'metrics',
    ]);
  });

  it('gives sources a safe workspace-name pattern, at least one entry, and the keys of source', () => {
    const { sources, source } = schema.properties;
    expect(sources).toMatchObject({
      type: 'object',
      minProperties: 1,
      propertyNames: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' },
    });
    expect(Object.keys(sources.additionalProperties.properties)).toEqual(Object.keys(source.properties));
  });

  it('shows defaults as optional input (editors complete them)', () => {
    expect(schema.properties.source.properties.requests_per_minute).toMatchObject({ default: 90, type: 'integer' });
    expect(schema.properties.source.required).toEqual(['base_url']);
  });
});
