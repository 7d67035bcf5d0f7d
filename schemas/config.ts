/**
 * The YAML config (docs/architecture.md#config). Every object is strict: an unknown key is an error that the
 * loader reports with its line. `${VAR}` references are resolved before this schema runs.
 * `schemas/config.schema.json` is generated from this file (`npm run schemas`).
 */
import { z } from 'zod';
import { allowInsecureHttp, changeDrivenReadFields, nonEmpty } from './config-fields.ts';
import { insecureHttpIssue, refuseInsecureHttp } from './insecure-http.ts';
import { metricsConfigSchema } from './metrics-config.ts';
import { openlineageConfigSchema } from './openlineage-config.ts';
import { streamsConfigSchema } from './streams-config.ts';

/** The rate limiter's budget when the config names none: the API allows 100, the rest is headroom for other tools. */
export const DEFAULT_REQUESTS_PER_MINUTE = 90;

/** `schema_evolution`: whether declared fields without a column gain one (docs/served-contract.md#schema-evolution). */
export const SCHEMA_EVOLUTION_MODES = ['evolve', 'freeze'] as const;
export type SchemaEvolutionMode = (typeof SCHEMA_EVOLUTION_MODES)[number];
/** `schema_evolution_max_columns` when the config does not say: the most evolved columns one table gains. */
export const DEFAULT_MAX_EVOLVED_COLUMNS = 200;
/** Its largest value: well within Postgres's 1,600 columns a table, the tightest of the four. */
const MAX_EVOLVED_COLUMNS = 1000;

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
    ...changeDrivenReadFields,
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
 * What every `destination:` block has: its `type`. The rest of its keys are its destination's,
 * each checked by that destination's schema (`schemas/destinations/<type>.ts`).
 */
export interface DestinationConfig {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** One destination's `destination:` block: a strict object whose `type` is a literal. */
export type DestinationConfigSchema = z.core.$ZodTypeDiscriminable & z.ZodType<DestinationConfig>;

/** The whole config around a `destination:` block that `destination` checks. */
function configObjectSchema(destination: z.ZodType<DestinationConfig>) {
  return z
    .strictObject({
      source: sourceConfigSchema
        .optional()
        .describe('The API workspace, named default. Give source or sources, not both.'),
      sources: sourcesConfigSchema.optional(),
      destination,
      streams: streamsConfigSchema.optional().describe('Absent: every stream.'),
      schema_evolution: z
        .enum(SCHEMA_EVOLUTION_MODES)
        .default('evolve')
        .describe(
          'evolve: a field the served contract declares and no column holds becomes a typed column, old rows filled from _raw. freeze: tables keep their columns (docs/served-contract.md#schema-evolution).',
        ),
      schema_evolution_max_columns: z
        .number()
        .int()
        .min(0)
        .max(MAX_EVOLVED_COLUMNS)
        .default(DEFAULT_MAX_EVOLVED_COLUMNS)
        .describe(
          'The most columns schema evolution gives one table (those it gave already count); a field beyond it stays in _raw, with one warning naming it (docs/served-contract.md#schema-evolution).',
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
}

export type ConfigSchema = ReturnType<typeof configObjectSchema>;

/**
 * The config schema for these destinations (the connector registry's, `connectors/registry.ts`):
 * `destination.type` picks one; a config without a `destination:` block gets `defaultType`'s
 * defaults.
 */
export function configSchemaFor(destinations: readonly DestinationConfigSchema[], defaultType: string): ConfigSchema {
  const byType = z.discriminatedUnion(
    'type',
    destinations as unknown as [DestinationConfigSchema, ...DestinationConfigSchema[]],
  ) as unknown as z.ZodType<DestinationConfig>;
  return configObjectSchema(byType.default(byType.parse({ type: defaultType })));
}

export type AivisConfig = z.infer<ConfigSchema>;
export type SourceConfig = z.infer<typeof sourceConfigSchema>;
export type SourcesConfig = z.infer<typeof sourcesConfigSchema>;
