/**
 * Options derived from the `destination` block of a duckdb config (its zod schema is
 * `duckdbConfigSchema` in schemas/config.ts), and the connector's capabilities.
 */
import path from 'node:path';
import type { DuckdbConfig } from '../../schemas/config.ts';
import type { DestinationCapabilities } from '../../src/destination/destination.ts';
import { FLUSH_SIZING } from '../../src/destination/flush-sizing.ts';

export type { DuckdbConfig } from '../../schemas/config.ts';

/** A flush is one transaction; commits are cheap, so flushes are small (flush-sizing.ts). */
export const DUCKDB_CAPABILITIES: DestinationCapabilities = { transactional: true, ...FLUSH_SIZING.duckdb };

export interface DuckdbOptions {
  /** Absolute path of the database file (`:memory:` stays as is). */
  readonly path: string;
  readonly schema: string;
  /**
   * The catalog DuckDB names the file by (its stem). Every table is written
   * `"catalog"."schema"."table"`: a file named like its schema (`aivis.duckdb`, schema
   * `aivis`) makes the two-part form ambiguous.
   */
  readonly catalog: string;
}

export function duckdbOptions(config: DuckdbConfig): DuckdbOptions {
  const memory = config.path === ':memory:';
  return {
    path: memory ? config.path : path.resolve(config.path),
    schema: config.schema,
    catalog: memory ? 'memory' : catalogOfFile(config.path),
  };
}

/**
 * The catalog name DuckDB gives a database file (its `ExtractDatabaseName`): the first
 * non-empty dot-separated part of the file name (`aivis.prod.duckdb` -> `aivis`,
 * `.hidden.duckdb` -> `hidden`), with `_db` added to the reserved `main` and `temp`.
 */
export function catalogOfFile(file: string): string {
  const name = path.basename(file);
  const stem = name.split('.').find((part) => part !== '') ?? name;
  return stem === 'main' || stem === 'temp' ? `${stem}_db` : stem;
}
