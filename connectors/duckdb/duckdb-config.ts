/**
 * Options derived from the `destination` block of a duckdb config (its zod schema is
 * `duckdbConfigSchema` in schemas/destinations/duckdb.ts), and the connector's capabilities.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DuckdbConfig } from '../../schemas/destinations/duckdb.ts';
import type { DestinationCapabilities } from '../../src/destination/destination.ts';
import type { FlushSizing } from '../descriptor.ts';
import { type DuckdbLimits, duckdbLimits } from './duckdb-session-limits.ts';

export type { DuckdbConfig } from '../../schemas/destinations/duckdb.ts';

/** A commit is cheap: flush every page or few, so a kill loses seconds of work (docs/architecture.md#state-rules). */
export const DUCKDB_FLUSH_SIZING: FlushSizing = { maxRowsPerFlush: 5_000, maxSecondsPerFlush: 5 };

/** A flush is one transaction. */
export const DUCKDB_CAPABILITIES: DestinationCapabilities = { transactional: true, ...DUCKDB_FLUSH_SIZING };

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
  /** Memory, threads and spill folder of every session on the file. */
  readonly limits: DuckdbLimits;
}

export function duckdbOptions(config: DuckdbConfig): DuckdbOptions {
  const memory = config.path === ':memory:';
  return {
    path: memory ? config.path : path.resolve(config.path),
    schema: config.schema,
    catalog: memory ? 'memory' : catalogOfFile(config.path),
    limits: duckdbLimits(config),
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

/** The default database file (schemas/destinations/duckdb.ts): its catalog `aivis_data` never clashes with the schema `aivis`. */
export const DEFAULT_FILE = 'aivis_data.duckdb';
/** The default file of aivis before 0.2, whose catalog `aivis` made `aivis.<table>` ambiguous. */
const EARLIER_DEFAULT_FILE = 'aivis.duckdb';

/**
 * Why `<schema>.<table>` is ambiguous in a DuckDB session on this file, and the fix; undefined
 * when it is not. DuckDB names the catalog after the file, and a catalog named like the schema
 * makes `aivis.websites` an "ambiguous reference" (aivis itself writes three-part names).
 */
export function schemaClash(options: DuckdbOptions): string | undefined {
  if (options.path === ':memory:' || options.catalog !== options.schema) return undefined;
  const file = path.basename(options.path);
  return (
    `the file name ${file} makes DuckDB call its catalog "${options.catalog}", like the schema, so ` +
    `${options.schema}.websites is ambiguous in a session on the file (write ${options.catalog}.${options.schema}.websites); ` +
    `to fix it, rename the file (e.g. mv ${file} ${DEFAULT_FILE}) and set destination.path to it, or set destination.schema to another name`
  );
}

/**
 * The earlier default file beside a default file that does not exist yet: a config relying on
 * the default, upgraded, would otherwise start an empty database and read everything again.
 */
export function earlierDefaultFile(options: DuckdbOptions): string | undefined {
  if (options.path === ':memory:' || path.basename(options.path) !== DEFAULT_FILE) return undefined;
  const earlier = path.join(path.dirname(options.path), EARLIER_DEFAULT_FILE);
  return !existsSync(options.path) && existsSync(earlier) ? earlier : undefined;
}
