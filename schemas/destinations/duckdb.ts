/** The `destination: { type: duckdb }` block, the default destination (docs/destinations/duckdb.md). */
import { z } from 'zod';
import { nonEmpty, identifier } from '../config-fields.ts';

/** An amount of memory as DuckDB's `memory_limit` takes it: a number and a unit (`512MB`, `1.5GB`, `256MiB`). */
const memorySize = z
  .string()
  .regex(
    /^\s*\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)\s*$/i,
    'must be a number and a unit (KB, MB, GB, TB or KiB, MiB, GiB, TiB), like 256MB or 2GB',
  );

export const duckdbConfigSchema = z.strictObject({
  type: z.literal('duckdb'),
  path: nonEmpty
    .default('./aivis_data.duckdb')
    .describe(
      'Not named like the schema: DuckDB names the catalog after the file, so aivis.duckdb would make aivis.<table> ambiguous',
    ),
  schema: identifier.default('aivis'),
  memory_limit: memorySize
    .optional()
    .describe(
      "DuckDB's memory_limit in every session aivis opens on the file (default 256MB): past it DuckDB spills to temp_directory",
    ),
  threads: z
    .number()
    .int()
    .min(1)
    .max(256)
    .optional()
    .describe("DuckDB's threads in every session aivis opens on the file (default 1)"),
  temp_directory: nonEmpty
    .optional()
    .describe(
      'Where DuckDB spills past memory_limit; default: <path>.tmp beside the file (a folder of its own in the system temp folder for :memory:), removed when the file closes',
    ),
});

export type DuckdbConfig = z.infer<typeof duckdbConfigSchema>;
