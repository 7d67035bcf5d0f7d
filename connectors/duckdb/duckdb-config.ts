/** Options derived from the `destination` block of a duckdb config. */
import path from 'node:path';
import type { DuckdbConfig } from '../../schemas/config.ts';

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
    // DuckDB names the catalog by the file name up to its FIRST dot (`aivis.prod.duckdb` -> `aivis`).
    catalog: memory ? 'memory' : path.basename(config.path).split('.')[0]!,
  };
}
