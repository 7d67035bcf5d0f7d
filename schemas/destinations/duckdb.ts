/** The `destination: { type: duckdb }` block, the default destination (docs/destinations/duckdb.md). */
import { z } from 'zod';
import { nonEmpty, identifier } from '../config-fields.ts';

export const duckdbConfigSchema = z.strictObject({
  type: z.literal('duckdb'),
  path: nonEmpty
    .default('./aivis_data.duckdb')
    .describe(
      'Not named like the schema: DuckDB names the catalog after the file, so aivis.duckdb would make aivis.<table> ambiguous',
    ),
  schema: identifier.default('aivis'),
});

export type DuckdbConfig = z.infer<typeof duckdbConfigSchema>;
