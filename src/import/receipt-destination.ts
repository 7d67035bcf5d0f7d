import type { LoadedConfig } from '../config/load-config.ts';
import { ConfigError } from '../errors.ts';
import type { ImportSource } from './import-source.ts';

/**
 * Whether an import's receipts go to the configured destination: only when the config names
 * one, so an import never leaves a surprise DuckDB file behind. A table or query source reads
 * the destination, so its config must name one. Decided on the config as loaded, so the file
 * is read once.
 * @throws ConfigError for a table or query source under a config naming no destination
 */
export function receiptsGoToDestination(loaded: LoadedConfig, source: ImportSource): boolean {
  if (!('file' in source) && !loaded.namesDestination) {
    throw new ConfigError(
      `${'table' in source ? '--from-table' : '--from-query'} reads the configured destination, and ${loaded.path} names none: add a destination: block`,
    );
  }
  return loaded.namesDestination;
}
