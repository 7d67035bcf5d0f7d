/**
 * Relative paths in the config resolve against the folder of the config file, not the
 * working directory: a CronJob, an Airflow pod and a laptop then read the same files from
 * the same config. Absolute paths are kept; DuckDB's `:memory:` is not a path.
 */
import path from 'node:path';
import type { AivisConfig, SourceConfig } from '../../schemas/config.ts';

/** `file` against `dir` unless it is already absolute. */
export function resolveFrom(dir: string, file: string): string {
  return path.resolve(dir, file);
}

/**
 * A copy of `config` with every file path absolute: each workspace's `api_key_file`, DuckDB `path`,
 * BigQuery `key_file`, Snowflake `private_key_file` and `state.path`.
 */
export function resolveConfigPaths(config: AivisConfig, dir: string): AivisConfig {
  const { source, sources, state } = config;
  const withKeyFile = (block: SourceConfig): SourceConfig =>
    block.api_key_file ? { ...block, api_key_file: resolveFrom(dir, block.api_key_file) } : block;
  const destination = { ...config.destination };
  if (destination.type === 'duckdb' && destination.path !== ':memory:')
    destination.path = resolveFrom(dir, destination.path);
  if (destination.type === 'bigquery' && destination.key_file)
    destination.key_file = resolveFrom(dir, destination.key_file);
  if (destination.type === 'snowflake' && destination.private_key_file) {
    destination.private_key_file = resolveFrom(dir, destination.private_key_file);
  }
  return {
    ...config,
    ...(source ? { source: withKeyFile(source) } : {}),
    ...(sources
      ? { sources: Object.fromEntries(Object.entries(sources).map(([name, block]) => [name, withKeyFile(block)])) }
      : {}),
    destination,
    state: { ...state, path: resolveFrom(dir, state.path) },
  };
}
