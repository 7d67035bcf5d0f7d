/**
 * Relative paths in the config resolve against the folder of the config file, not the
 * working directory: a CronJob, an Airflow pod and a laptop then read the same files from
 * the same config. Absolute paths are kept; DuckDB's `:memory:` is not a path.
 */
import path from 'node:path';
import { DESTINATIONS, descriptorOf } from '../../connectors/registry.ts';
import type { AivisConfig, SourceConfig } from '../../schemas/config.ts';
import type { OpenlineageConfig } from '../../schemas/openlineage-config.ts';

/** `file` against `dir` unless it is already absolute. */
export function resolveFrom(dir: string, file: string): string {
  return path.resolve(dir, file);
}

/** The file transport's `path` and the http transport's `auth.apiKeyFile`, absolute. */
function withLineagePaths(openlineage: OpenlineageConfig, dir: string): OpenlineageConfig {
  const { transport } = openlineage;
  if (transport.type === 'file')
    return { ...openlineage, transport: { ...transport, path: resolveFrom(dir, transport.path) } };
  if (transport.type === 'http' && transport.auth?.apiKeyFile) {
    const auth = { ...transport.auth, apiKeyFile: resolveFrom(dir, transport.auth.apiKeyFile) };
    return { ...openlineage, transport: { ...transport, auth } };
  }
  return openlineage;
}

/**
 * A copy of `config` with every file path absolute: each workspace's `api_key_file`, the
 * destination's files (its descriptor names them: DuckDB `path`, BigQuery `key_file`, Snowflake
 * `private_key_file`), `state.path`, the lineage file transport's `path` and `apiKeyFile`, and
 * `metrics.textfile`.
 */
export function resolveConfigPaths(config: AivisConfig, dir: string, registry = DESTINATIONS): AivisConfig {
  const { source, sources, state } = config;
  const withKeyFile = (block: SourceConfig): SourceConfig =>
    block.api_key_file ? { ...block, api_key_file: resolveFrom(dir, block.api_key_file) } : block;
  const destination = descriptorOf(config.destination.type, registry).withAbsolutePaths(config.destination, (file) =>
    resolveFrom(dir, file),
  );
  return {
    ...config,
    ...(config.openlineage ? { openlineage: withLineagePaths(config.openlineage, dir) } : {}),
    ...(config.metrics?.textfile
      ? { metrics: { ...config.metrics, textfile: resolveFrom(dir, config.metrics.textfile) } }
      : {}),
    ...(source ? { source: withKeyFile(source) } : {}),
    ...(sources
      ? { sources: Object.fromEntries(Object.entries(sources).map(([name, block]) => [name, withKeyFile(block)])) }
      : {}),
    destination,
    state: { ...state, path: resolveFrom(dir, state.path) },
  };
}
