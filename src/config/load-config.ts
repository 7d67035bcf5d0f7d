/**
 * Loads the YAML config (docs/architecture.md#config) into a validated `AivisConfig` and its
 * workspaces, each with its API key.
 *
 * - `${VAR}` in values comes from `env`; `$${` is a literal `${`.
 * - Secrets (each workspace's `api_key`, `destination.password`, `destination.private_key_passphrase`,
 *   a password in `destination.url`) are never read from the YAML text; each one is
 *   registered for redaction before any message is built.
 * - Relative paths (each workspace's `api_key_file`, DuckDB `path`, BigQuery `key_file`, Snowflake
 *   `private_key_file`, `state.path`, the lineage `apiKeyFile` and file transport's `path`,
 *   `metrics.textfile`) resolve against the config file's folder.
 * - Every problem is reported at once, one `file:line: message` per line, as a `ConfigError`
 *   (exit code 2).
 *
 * @example
 * const { config, workspaces } = await loadConfig(argv.config ?? process.env.AIVIS_CONFIG);
 */
import path from 'node:path';
import { configSchemaOf, DESTINATIONS } from '../../connectors/registry.ts';
import type { AivisConfig } from '../../schemas/config.ts';
import { ConfigError } from '../errors.ts';
import { readSmallFile } from '../files/small-file.ts';
import { createLogger, type Logger } from '../log/logger.ts';
import { readApiKeyFile } from './api-key-file.ts';
import { rateWarnings } from './rate-above-api-limit.ts';
import { configErrorOf, type ConfigIssue, type ConfigPath, isUnder } from './config-issue.ts';
import { resolveConfigPaths } from './config-paths.ts';
import { refuseLiteralSecrets, registerConfigSecrets, secretScalars } from './config-secrets.ts';
import { substituteEnv } from './env-substitution.ts';
import { describeReadFailure } from './read-failure.ts';
import { expandStreamShorthand } from './stream-shorthand.ts';
import { parseYamlSource, yamlData } from './yaml-source.ts';
import { createLineOf, keysAt } from './yaml-positions.ts';
import { DEFAULT_WORKSPACE } from '../destination/workspace.ts';
import { sourceBlockPaths, type Workspace, workspaceSources } from './workspaces.ts';
import { wordZodIssues } from './zod-issue-wording.ts';

/** A validated config with its secrets resolved. */
export interface LoadedConfig {
  /** The validated config, defaults applied, every file path absolute. */
  config: AivisConfig;
  /**
   * Every workspace, sorted by name, each with its key from `${VAR}` or `api_key_file`
   * (registered for redaction); a config with `source:` has one, named `default`.
   */
  workspaces: readonly Workspace[];
  /** Absolute path of the config file. */
  path: string;
  /** Whether the file has a `destination:` block: without one, `config.destination` is the default destination's defaults. */
  namesDestination: boolean;
  /** The `openlineage:` block's API key, from `${VAR}` or `apiKeyFile` (registered for redaction). */
  lineageApiKey?: string;
}

const LINEAGE_KEY_FILE = ['openlineage', 'transport', 'auth', 'apiKeyFile'];
/** The lineage endpoint's key: a verb that runs nothing emits no event, so needs no key. */
const LINEAGE_KEY = ['openlineage', 'transport', 'auth', 'apiKey'];

/**
 * Which workspaces' API keys a command resolves (least privilege: a probe that reads only the
 * destination must not need the API secret): all, none, or the names a function picks from the
 * config's workspace names (`sync --workspace a`). A key not resolved is the empty string.
 */
export type ApiKeysNeeded = 'all' | 'none' | ((workspaceNames: readonly string[]) => readonly string[]);

/**
 * `logger` takes the warnings (a key file readable by every user); errors are thrown.
 * `registry` is the destinations the config may name (`connectors/registry.ts`).
 */
export async function loadConfig(
  file: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  logger: Logger = createLogger(),
  apiKeys: ApiKeysNeeded = 'all',
  registry = DESTINATIONS,
): Promise<LoadedConfig> {
  if (!file) throw new ConfigError('no config file given: pass --config FILE or set AIVIS_CONFIG');
  const absolute = path.resolve(file);
  const dir = path.dirname(absolute);
  const text = await readConfigText(file, absolute);

  const { doc, lineCounter } = parseYamlSource(text, file);
  const lineOf = createLineOf(doc, lineCounter);
  // Keys are never substituted, so the workspace names read off the raw document hold for the data too.
  const sourceBlocks = sourceBlockPaths(keysAt(doc, ['sources']));
  const unneeded = unneededKeys(sourceBlocks, keysAt(doc, ['sources']), apiKeys);
  const unneededBlocks = sourceBlocks.filter((block) => unneeded.some((secret) => isUnder(secret, block)));
  const issues: ConfigIssue[] = [
    ...refuseLiteralSecrets(doc, lineOf, sourceBlocks, registry),
    // A key this command does not use may be unset: its `${VAR}` is not this run's business.
    ...substituteEnv(doc, env, lineOf, secretScalars(doc, sourceBlocks, registry)).filter(
      (issue) => !unneeded.some((secret) => isUnder(issue.path, secret)),
    ),
  ];
  const data = yamlData(doc, file);
  expandStreamShorthand(data);
  registerConfigSecrets(
    data,
    issues.map((issue) => issue.path),
    sourceBlocks,
    registry,
  );
  const keyFiles = new Map<string, string>();
  for (const block of sourceBlocks) {
    if (unneededBlocks.includes(block)) continue;
    const keyFile = await readApiKeyFile(data, [...block, 'api_key_file'], dir, lineOf);
    if (keyFile.issue) issues.push(keyFile.issue);
    if (keyFile.warning) logger.warn(keyFile.warning);
    if (keyFile.apiKey !== undefined) keyFiles.set(String(block[1] ?? DEFAULT_WORKSPACE), keyFile.apiKey);
  }
  const lineageKeyFile = unneeded.includes(LINEAGE_KEY)
    ? {}
    : await readApiKeyFile(data, LINEAGE_KEY_FILE, dir, lineOf);
  if (lineageKeyFile.issue) issues.push(lineageKeyFile.issue);
  if (lineageKeyFile.warning) logger.warn(lineageKeyFile.warning);

  const configSchema = configSchemaOf(registry);
  const parsed = configSchema.safeParse(data);
  if (!parsed.success) {
    // A value already reported (a missing variable, a refused secret) would only repeat
    // itself as a schema error; its first message is the one that says what to fix.
    const reported = issues.map((issue) => issue.path);
    const schemaIssues = wordZodIssues(parsed.error.issues, { schema: configSchema, data, lineOf });
    issues.push(...schemaIssues.filter((issue) => !reported.some((p) => isUnder(issue.path, p))));
  }
  if (issues.length || !parsed.success) throw configErrorOf(file, issues);

  const config = resolveConfigPaths(parsed.data, dir, registry);
  const rated = workspaceSources(config).map(({ name, source }) => ({
    path: config.source ? ['source'] : ['sources', name],
    source,
  }));
  // A command that calls no API (query, status, streams...) has no use for a word on its rate.
  if (apiKeys !== 'none') for (const warning of rateWarnings(file, rated, lineOf)) logger.warn(warning);
  const skipped = new Set(unneededBlocks.map((block) => String(block[1] ?? DEFAULT_WORKSPACE)));
  const workspaces = workspaceSources(config).map(({ name, source }) => ({
    name,
    source,
    // Trimmed like the key file: a Secret created from a file often ends in a newline, which
    // would otherwise break the Authorization header.
    apiKey: skipped.has(name) ? '' : (keyFiles.get(name) ?? source.api_key ?? '').trim(),
  }));
  const auth = config.openlineage?.transport.type === 'http' ? config.openlineage.transport.auth : undefined;
  const lineageApiKey = lineageKeyFile.apiKey ?? auth?.apiKey?.trim();
  return {
    config,
    workspaces,
    path: absolute,
    namesDestination: keysAt(doc, []).includes('destination'),
    ...(lineageApiKey ? { lineageApiKey } : {}),
  };
}

/** The API secrets `apiKeys` leaves unresolved: source blocks' `api_key`, and with `none` the lineage key. */
function unneededKeys(
  sourceBlocks: readonly ConfigPath[],
  sourcesNames: readonly string[],
  apiKeys: ApiKeysNeeded,
): ConfigPath[] {
  if (apiKeys === 'all') return [];
  if (apiKeys === 'none') return [...sourceBlocks.map((block) => [...block, 'api_key']), LINEAGE_KEY];
  const needed = apiKeys(sourcesNames.length > 0 ? sourcesNames : [DEFAULT_WORKSPACE]);
  return sourceBlocks
    .filter((block) => !needed.includes(String(block[1] ?? DEFAULT_WORKSPACE)))
    .map((block) => [...block, 'api_key']);
}

/**
 * The most a config file may hold. The largest real configs (hundreds of workspaces or
 * websites) are tens of KiB; the parsed YAML tree with its positions costs many times the
 * text, so a far larger file would exhaust the heap instead of failing with a message.
 */
export const MAX_CONFIG_BYTES = 1024 * 1024;

async function readConfigText(file: string, absolute: string): Promise<string> {
  try {
    return await readSmallFile(absolute, MAX_CONFIG_BYTES);
  } catch (error) {
    throw new ConfigError(
      `config file ${file} cannot be read (${describeReadFailure(error)}); pass --config FILE or set AIVIS_CONFIG`,
      {
        cause: error,
      },
    );
  }
}
