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
import { formatIssues } from '../../schemas/format-issues.ts';
import type { Workspace } from '../config/workspaces.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import { registerSecret } from '../log/redact.ts';
import { ProtocolInputError, readJsonFile } from './protocol-input.ts';

const sourceShape = sourceConfigSchema.shape;
/** The engine's config schema (its `websites` rule, and the defaults of what the JSON config leaves out). */
const configSchema = configSchemaOf();

export const protocolConfigSchema = z
  .strictObject({
    base_url: sourceShape.base_url,
    api_key: z
      .string()
      .min(1)
      .meta({ airbyte_secret: true })
      .describe('The API key of the workspace (V2, read scope).'),
    requests_per_minute: sourceShape.requests_per_minute,
    // Change-driven reads skip only the streams the catalog reads incrementally (docs/configuration.md#change-driven-reads).
    skip_unchanged: sourceShape.skip_unchanged,
    sweep_every: sourceShape.sweep_every,
    settle_for: sourceShape.settle_for,
    websites: configSchema.shape.websites
      .unwrap()
      .shape.include.optional()
      .describe('Only these website ids; absent: every listed website.'),
    streams: streamsConfigSchema
      .optional()
      .describe(
        'Options per stream, as the YAML config\u2019s streams: block; absent: every stream with its defaults.',
      ),
    allow_mass_removal: z
      .boolean()
      .default(false)
      .describe('Accept a listing that removes more than half of the known websites (or all of them).'),
    schema_evolution: configSchema.shape.schema_evolution.describe(
      'evolve: a field the served contract declares and no column holds is a column of the stream, as a sync would add it. freeze: the streams keep their columns, new fields stay in _raw.',
    ),
  })
  .meta({ title: 'aivis' });

export type ProtocolConfigInput = z.input<typeof protocolConfigSchema>;

/** What a protocol mode runs with: the engine's config, the one workspace with its key, and the guard's switch. */
export interface ProtocolConfig {
  readonly config: AivisConfig;
  readonly workspace: Workspace;
  readonly allowMassRemoval: boolean;
}

/** The JSON Schema of the config, as the Airbyte `SPEC` carries it (input side: defaults optional). */
export function connectionSpecification(): Record<string, unknown> {
  const { $schema: _draft, ...schema } = z.toJSONSchema(protocolConfigSchema, { target: 'draft-7', io: 'input' });
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...schema };
}

/** Reads and checks the config file; a `ProtocolInputError` names the file and what is wrong. */
export async function readProtocolConfig(file: string | undefined): Promise<ProtocolConfig> {
  const raw = await readJsonFile('config', file);
  // Registered before anything can echo it, whatever else the file gets wrong.
  const key = (raw as { api_key?: unknown } | null)?.api_key;
  if (typeof key === 'string') {
    registerSecret(key);
    registerSecret(key.trim());
  }
  const parsed = protocolConfigSchema.safeParse(raw);
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
