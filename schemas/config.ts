/**
 * The YAML config (docs/architecture.md#config). Every object is strict: an unknown key is an error that the
 * loader reports with its line. `${VAR}` references are resolved before this schema runs.
 * `schemas/config.schema.json` is generated from this file (`npm run schemas`).
 */
import { z } from 'zod';
import { STREAMS, type Stream } from '../src/streams/registry.ts';
import { insecureHttpIssue, refuseInsecureHttp } from './insecure-http.ts';
import { metricsConfigSchema } from './metrics-config.ts';
import { openlineageConfigSchema } from './openlineage-config.ts';

const nonEmpty = z.string().min(1);
/** Beside each URL that may be `http://` (see insecure-http.ts). */
const allowInsecureHttp = z
  .boolean()
  .optional()
  .describe(
    'true lets the URL beside it be http:// to a host that is not loopback: its secrets then cross the network in clear.',
  );
const identifier = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]{0,127}$/,
    'must be letters, digits and underscores, starting with a letter or underscore',
  );

/** The rate limiter's budget when the config names none: the API allows 100, the rest is headroom for other tools. */
export const DEFAULT_REQUESTS_PER_MINUTE = 90;

/** `schema_evolution`: whether declared fields without a column gain one (docs/schema-evolution.md). */
export const SCHEMA_EVOLUTION_MODES = ['evolve', 'freeze'] as const;
export type SchemaEvolutionMode = (typeof SCHEMA_EVOLUTION_MODES)[number];

/**
 * The most one request may spend in attempts and `Retry-After` waits when the config does not
 * say: 10 minutes, so a hostile or broken server cannot hold a scheduled run for hours.
 */
export const DEFAULT_RETRY_BUDGET_SECONDS = 600;

/** What an API key's requests carry, for the insecure-http message of each source block. */
const sourceInsecureHttp = (block: string) => ({ urlKey: 'base_url', block, carries: 'the API key' });

/** One workspace's API access: the same keys under `source:` and under each name in `sources:`. */
const sourceFieldsSchema = z
  .strictObject({
    base_url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://api.example.com' }),
    allow_insecure_http: allowInsecureHttp,
    api_key: nonEmpty.optional().describe('Write it as ${VAR}; a key written into the YAML is refused.'),
    api_key_file: nonEmpty.optional().describe('Path of a file holding the API key (e.g. a mounted Secret).'),
    requests_per_minute: z.int().min(1).max(6000).default(DEFAULT_REQUESTS_PER_MINUTE),
    timeout_seconds: z.number().positive().max(600).default(60),
    max_retries: z.int().min(0).max(20).default(6),
    retry_budget_seconds: z
      .number()
      .positive()
      .max(86_400)
      .default(DEFAULT_RETRY_BUDGET_SECONDS)
      .describe(
        'The most one request may spend in attempts and Retry-After waits, from its first attempt (time queued for the rate budget not counted); a longer Retry-After fails it at once.',
      ),
  })
  .refine((s) => (s.api_key === undefined) !== (s.api_key_file === undefined), {
    message: 'give exactly one of api_key (as ${VAR}) or api_key_file',
  });

export const sourceConfigSchema = sourceFieldsSchema.superRefine(refuseInsecureHttp(sourceInsecureHttp('source')));

/**
 * A workspace's name ends up in the `_workspace` column, state scopes, lock ids and log
 * lines (docs/architecture.md#config), so it is kept to text that is safe in all of them.
 */
export const WORKSPACE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const workspaceNameSchema = z
  .string()
  .regex(
    WORKSPACE_NAME,
    'must be lowercase letters, digits, "_" and "-", starting with a letter or digit, at most 64 characters',
  );

export const sourcesConfigSchema = z
  .record(workspaceNameSchema, sourceFieldsSchema)
  .superRefine((sources, context) => {
    const names = Object.keys(sources);
    if (names.length === 0) {
      context.addIssue({ code: 'custom', input: sources, message: 'name at least one workspace' });
    }
    for (const name of names) {
      const issue = insecureHttpIssue(sourceInsecureHttp(`sources.${name}`), sources[name]!);
      if (issue) context.addIssue({ code: 'custom', ...issue, path: [name, ...issue.path] });
    }
  })
  .meta({ minProperties: 1 })
  .describe(
    'One API workspace per name (lowercase letters, digits, "_" and "-"), each with the keys of source:. Give sources or source, not both.',
  );

/**
 * Why a Postgres `url` that no URL parser reads is refused, after its key (`destination.url
 * is not a URL: ...`): the loader says it, and the connector if handed one directly.
 */
export const POSTGRES_URL_UNPARSABLE = 'is not a URL: write it as postgres://user:password@host:5432/database';

export const postgresConfigSchema = z.strictObject({
  type: z.literal('postgres'),
  // Refused at load, so every verb says it alike before anything parses the URL.
  url: nonEmpty
    .refine((url) => URL.canParse(url), POSTGRES_URL_UNPARSABLE)
    .describe('postgres://user:password@host:5432/db; write it as ${DATABASE_URL}'),
  schema: identifier.default('aivis'),
});

export const duckdbConfigSchema = z.strictObject({
  type: z.literal('duckdb'),
  path: nonEmpty
    .default('./aivis_data.duckdb')
    .describe(
      'Not named like the schema: DuckDB names the catalog after the file, so aivis.duckdb would make aivis.<table> ambiguous',
    ),
  schema: identifier.default('aivis'),
});

export const bigqueryConfigSchema = z
  .strictObject({
    type: z.literal('bigquery'),
    project: z
      .string()
      .regex(
        /^[a-z0-9.:-]{1,128}$/,
        'must be a Google Cloud project id such as my-project (lowercase letters, digits, hyphens; a domain prefix like example.com:my-project)',
      ),
    dataset: identifier.default('aivis'),
    location: nonEmpty.default('US'),
    key_file: nonEmpty.optional().describe('Service-account key file; Application Default Credentials when absent.'),
    api_endpoint: z.url().optional().describe('Override of the BigQuery REST endpoint (private endpoints, emulators).'),
    job_timeout_seconds: z
      .number()
      .int()
      .min(10)
      .max(21_600)
      .optional()
      .describe(
        "Each query job's jobTimeoutMs (default 600); aivis stops waiting for a job (and cancels it) a minute later.",
      ),
    allow_insecure_http: allowInsecureHttp,
  })
  .superRefine(
    refuseInsecureHttp({
      urlKey: 'api_endpoint',
      block: 'destination',
      carries: 'the Google access token and the rows',
    }),
  );

export const snowflakeConfigSchema = z
  .strictObject({
    type: z.literal('snowflake'),
    account: nonEmpty,
    username: nonEmpty,
    private_key_file: nonEmpty.optional(),
    private_key_passphrase: nonEmpty.optional(),
    password: nonEmpty.optional(),
    warehouse: nonEmpty,
    database: nonEmpty.describe(
      'Unquoted it resolves upper-case, as in Snowflake SQL; write "MyDb" (in double quotes) for a case-sensitive name.',
    ),
    schema: z
      .string()
      .regex(
        /^(?:[A-Za-z_][A-Za-z0-9_]{0,127}|"[^"]{1,255}")$/,
        'must be letters, digits and underscores, starting with a letter or underscore, or any name in double quotes (case-sensitive)',
      )
      .default('AIVIS'),
    role: nonEmpty.optional(),
    flush_interval_seconds: z
      .number()
      .int()
      .min(5)
      .max(1200)
      .optional()
      .describe(
        'Longest a flush waits for more rows (default 900): each flush resumes the warehouse for a billed minute; a kill loses at most this long of reading. At most 1200: the 30-minute run lock lease is renewed by the flushes, and after 20 minutes without one its timer renews it on its own, resuming a suspended warehouse.',
      ),
    access_url: z.url().optional().describe('Override of the account URL (private link, local stand-ins).'),
    allow_insecure_http: allowInsecureHttp,
  })
  .refine((s) => (s.private_key_file === undefined) !== (s.password === undefined), {
    message: 'give exactly one of private_key_file (key-pair auth) or password',
  })
  .superRefine(
    refuseInsecureHttp({ urlKey: 'access_url', block: 'destination', carries: 'the Snowflake login and the rows' }),
  );

export const destinationConfigSchema = z.discriminatedUnion('type', [
  postgresConfigSchema,
  duckdbConfigSchema,
  bigqueryConfigSchema,
  snowflakeConfigSchema,
]);

/** One optional key per stream, holding its options (each stream declares them in `src/streams/`). */
type StreamsConfigShape = { readonly [S in Stream as S['name']]: z.ZodOptional<S['options']> };

export const streamsConfigSchema = z.strictObject(
  Object.fromEntries(STREAMS.map((stream) => [stream.name, stream.options.optional()])) as StreamsConfigShape,
);

export const configSchema = z
  .strictObject({
    source: sourceConfigSchema
      .optional()
      .describe('The API workspace, named default. Give source or sources, not both.'),
    sources: sourcesConfigSchema.optional(),
    destination: destinationConfigSchema.default({ type: 'duckdb', path: './aivis_data.duckdb', schema: 'aivis' }),
    streams: streamsConfigSchema.optional().describe('Absent: every stream.'),
    schema_evolution: z
      .enum(SCHEMA_EVOLUTION_MODES)
      .default('evolve')
      .describe(
        'evolve: a field the served contract declares and no column holds becomes a typed column, old rows filled from _raw. freeze: tables keep their columns (docs/schema-evolution.md).',
      ),
    websites: z
      .strictObject({
        include: z.array(z.string().regex(/^web_[A-Za-z0-9_-]+$/, 'must be a website id such as web_123')).min(1),
      })
      .optional(),
    state: z
      .strictObject({
        store: z.enum(['destination', 'file']).default('destination'),
        path: nonEmpty.default('./aivis-state.json'),
      })
      .default({ store: 'destination', path: './aivis-state.json' }),
    openlineage: openlineageConfigSchema.optional(),
    metrics: metricsConfigSchema.optional(),
  })
  .superRefine((config, context) => {
    if ((config.source === undefined) === (config.sources === undefined)) {
      context.addIssue({
        code: 'custom',
        input: config,
        path: config.sources === undefined ? [] : ['sources'],
        message: `give exactly one of source (one workspace, named default) or sources (workspaces by name)${config.sources === undefined ? '' : ', not both'}`,
      });
    }
  })
  .meta({ oneOf: [{ required: ['source'] }, { required: ['sources'] }] });

export type AivisConfig = z.infer<typeof configSchema>;
export type SourceConfig = z.infer<typeof sourceConfigSchema>;
export type SourcesConfig = z.infer<typeof sourcesConfigSchema>;
export type DestinationConfig = z.infer<typeof destinationConfigSchema>;
export type PostgresConfig = z.infer<typeof postgresConfigSchema>;
export type DuckdbConfig = z.infer<typeof duckdbConfigSchema>;
export type BigqueryConfig = z.infer<typeof bigqueryConfigSchema>;
export type SnowflakeConfig = z.infer<typeof snowflakeConfigSchema>;
