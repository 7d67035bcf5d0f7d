/**
 * The JSON config both protocol modes take (docs/protocols.md#config): the keys of the Airbyte
 * `SPEC`'s `connectionSpecification`, built from the YAML config's own schema pieces so the
 * two cannot drift: `base_url`, `api_key` (a secret), and optionally `requests_per_minute`,
 * `skip_unchanged`, `sweep_every`, `settle_for` (change-driven reads), `websites` (ids), `streams` (the YAML `streams:` block), `allow_mass_removal` and
 * `schema_evolution` (the YAML key: which columns the streams carry), with the
 * YAML config's defaults. No destination: the platform running aivis loads the records.
 */
import { z } from 'zod';
import { configSchemaOf } from '../../connectors/registry.ts';
import { type AivisConfig, sourceConfigSchema } from '../../schemas/config.ts';
import { streamsConfigSchema } from '../../schemas/streams-config.ts';
import { formatIssues, formatPath } from '../../schemas/format-issues.ts';
import type { Workspace } from '../config/workspaces.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { registerSecret } from '../log/redact.ts';
import { ProtocolInputError, readJsonFile } from './protocol-input.ts';

const sourceShape = sourceConfigSchema.shape;
/** The engine's config schema (its `websites` rule, and the defaults of what the JSON config leaves out). */
const configSchema = configSchemaOf();

export const protocolConfigSchema = z
  .strictObject({
    base_url: sourceShape.base_url.meta({
      title: 'API base URL',
      description: "The API's base URL, e.g. https://api.example.com (http:// only to a loopback host).",
    }),
    api_key: z
      .string()
      .min(1)
      .meta({ title: 'API key', description: 'The API key of the workspace (V2, read scope).', airbyte_secret: true }),
    requests_per_minute: sourceShape.requests_per_minute.meta({
      title: 'Requests per minute',
      description: 'The rate budget: at most this many requests a minute.',
    }),
    // Change-driven reads skip only the streams the catalog reads incrementally (docs/configuration.md#change-driven-reads).
    skip_unchanged: sourceShape.skip_unchanged.meta({
      title: 'Skip unchanged websites',
      description:
        'Read a stream of a website only when the listing says it changed, it is settling, or its sweep is due (incremental streams only); default false.',
    }),
    sweep_every: sourceShape.sweep_every.meta({
      title: 'Sweep every',
      description:
        'With skip_unchanged: every website is read whole at least this often (30s, 90m, 24h, 2d); default 24h.',
    }),
    settle_for: sourceShape.settle_for.meta({
      title: 'Settle for',
      description: 'With skip_unchanged: a website is read every run for this long after a new analysis; default 2h.',
    }),
    websites: configSchema.shape.websites.unwrap().shape.include.optional().meta({
      title: 'Websites',
      description: 'Only these website ids; absent: every listed website.',
    }),
    streams: streamsConfigSchema.optional().meta({
      title: 'Stream options',
      description:
        'Options per stream, as the YAML config\u2019s streams: block; absent: every stream with its defaults.',
    }),
    allow_mass_removal: z.boolean().default(false).meta({
      title: 'Allow mass removal',
      description: 'Accept a listing that removes more than half of the known websites (or all of them).',
    }),
    schema_evolution: configSchema.shape.schema_evolution.meta({
      title: 'Schema evolution',
      description:
        'evolve: a field the served contract declares and no column holds is a column of the stream, as a sync would add it. freeze: the streams keep their columns, new fields stay in _raw.',
    }),
  })
  .meta({ title: 'aivis' });

export type ProtocolConfigInput = z.input<typeof protocolConfigSchema>;

/** What a protocol mode runs with: the engine's config, the one workspace with its key, and the guard's switch. */
export interface ProtocolConfig {
  readonly config: AivisConfig;
  readonly workspace: Workspace;
  readonly allowMassRemoval: boolean;
}

/** The JSON Schema of the config (input side: defaults optional); the Airbyte `SPEC` shapes it for its form (`airbyte-spec.ts`). */
export function configJsonSchema(): Record<string, unknown> {
  const { $schema: _draft, ...schema } = z.toJSONSchema(protocolConfigSchema, { target: 'draft-7', io: 'input' });
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...schema };
}

/**
 * Reads and checks the config file; a `ProtocolInputError` names the file and what is wrong. A
 * key aivis does not know (a platform adds its own) is one warning naming it, and otherwise
 * ignored; the YAML config, which people write, still refuses them.
 */
export async function readProtocolConfig(
  file: string | undefined,
  logger: Logger = createLogger(),
): Promise<ProtocolConfig> {
  const raw = await readJsonFile('config', file);
  // Registered before anything can echo it, whatever else the file gets wrong.
  const key = (raw as { api_key?: unknown } | null)?.api_key;
  if (typeof key === 'string') {
    registerSecret(key);
    registerSecret(key.trim());
  }
  const parsed = protocolConfigSchema.safeParse(withoutUnknownKeys(raw, file, logger));
  if (!parsed.success) throw new ProtocolInputError(`config file ${file}: ${formatIssues(parsed.error)}`);
  const { base_url, api_key, websites, streams, allow_mass_removal, schema_evolution, ...rest } = parsed.data;
  const { requests_per_minute, skip_unchanged, sweep_every, settle_for } = rest;
  const source = sourceConfigSchema.safeParse({
    base_url,
    api_key,
    requests_per_minute,
    skip_unchanged,
    sweep_every,
    settle_for,
  });
  if (!source.success) throw new ProtocolInputError(`config file ${file}: ${formatIssues(source.error)}`);
  const config = configSchema.parse({
    source: source.data,
    schema_evolution,
    ...(streams ? { streams } : {}),
    ...(websites ? { websites: { include: websites } } : {}),
  });
  return {
    config,
    workspace: { name: DEFAULT_WORKSPACE, source: source.data, apiKey: api_key.trim() },
    allowMassRemoval: allow_mass_removal,
  };
}

/** The config without the keys the schema does not know, each named in one warning. */
function withoutUnknownKeys(raw: unknown, file: string | undefined, logger: Logger): unknown {
  const parsed = protocolConfigSchema.safeParse(raw);
  if (parsed.success) return raw;
  const unknown = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => ({ parent: issue.path, key })) : [],
  );
  if (unknown.length === 0) return raw;
  const kept = structuredClone(raw) as Record<PropertyKey, unknown>;
  for (const { parent, key } of unknown) {
    logger.warn('config key ignored: aivis does not know it', { file, key: formatPath([...parent, key]) });
    const holder = parent.reduce<Record<PropertyKey, unknown>>(
      (value, step) => value[step] as Record<PropertyKey, unknown>,
      kept,
    );
    delete holder[key];
  }
  return kept;
}
