/** The `destination: { type: postgres }` block (docs/destinations/postgres.md). */
import { z } from 'zod';
import { nonEmpty, identifier } from '../config-fields.ts';

/**
 * Why a Postgres `url` that no URL parser reads is refused, after its key (`destination.url
 * is not a URL: ...`): the loader says it, and the connector if handed one directly.
 */
export const POSTGRES_URL_UNPARSABLE = 'is not a URL: write it as postgres://user:<password>@host:5432/database';

export const postgresConfigSchema = z.strictObject({
  type: z.literal('postgres'),
  // Refused at load, so every verb says it alike before anything parses the URL.
  url: nonEmpty
    .refine((url) => URL.canParse(url), POSTGRES_URL_UNPARSABLE)
    .describe('postgres://user:password@host:5432/db; write it as ${DATABASE_URL}'),
  schema: identifier.default('aivis'),
});

export type PostgresConfig = z.infer<typeof postgresConfigSchema>;
