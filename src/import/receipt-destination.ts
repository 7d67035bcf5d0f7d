import { parse as parseYaml } from 'yaml';
import { MAX_CONFIG_BYTES } from '../config/load-config.ts';
import { ConfigError } from '../errors.ts';
import { readSmallFile } from '../files/small-file.ts';
import type { ImportSource } from './import-source.ts';

/**
 * Whether an import's receipts go to the configured destination: only when the config names
 * one, so an import never leaves a surprise DuckDB file behind. A table or query source reads
 * the destination, so its config must name one.
 * @throws ConfigError for a table or query source under a config naming no destination
 */
export async function receiptsGoToDestination(configPath: string, source: ImportSource): Promise<boolean> {
  const document = parseYaml(await readSmallFile(configPath, MAX_CONFIG_BYTES)) as { destination?: unknown } | null;
  const named = document?.destination !== undefined && document.destination !== null;
  if (!('file' in source) && !named) {
    throw new ConfigError(
      `${'table' in source ? '--from-table' : '--from-query'} reads the configured destination, and ${configPath} names none: add a destination: block`,
    );
  }
  return named;
}
