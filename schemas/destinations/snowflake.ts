/** The `destination: { type: snowflake }` block (docs/destinations/snowflake.md). */
import { z } from 'zod';
import { allowInsecureHttp, nonEmpty } from '../config-fields.ts';
import { refuseInsecureHttp } from '../insecure-http.ts';

export const snowflakeConfigSchema = z
  .strictObject({
    type: z.literal('snowflake'),
    account: nonEmpty,
    username: nonEmpty,
    private_key_file: nonEmpty.optional(),
    private_key_passphrase: nonEmpty.optional(),
    password: nonEmpty.optional(),
    warehouse: nonEmpty,
    database: nonEmpty.describe(
      'Unquoted it resolves upper-case, as in Snowflake SQL; write "MyDb" (in double quotes) for a case-sensitive name.',
    ),
    schema: z
      .string()
      .regex(
        /^(?:[A-Za-z_][A-Za-z0-9_]{0,127}|"[^"]{1,255}")$/,
        'must be letters, digits and underscores, starting with a letter or underscore, or any name in double quotes (case-sensitive)',
      )
      .default('AIVIS'),
    role: nonEmpty.optional(),
    flush_interval_seconds: z
      .number()
      .int()
      .min(5)
      .max(1200)
      .optional()
      .describe(
        'Longest a flush waits for more rows (default 900): each flush resumes the warehouse for a billed minute; a kill loses at most this long of reading. At most 1200: the 30-minute run lock lease is renewed by the flushes, and after 20 minutes without one its timer renews it on its own, resuming a suspended warehouse.',
      ),
    access_url: z.url().optional().describe('Override of the account URL (private link, local stand-ins).'),
    allow_insecure_http: allowInsecureHttp,
  })
  .refine((s) => (s.private_key_file === undefined) !== (s.password === undefined), {
    message: 'give exactly one of private_key_file (key-pair auth) or password',
  })
  .superRefine(
    refuseInsecureHttp({ urlKey: 'access_url', block: 'destination', carries: 'the Snowflake login and the rows' }),
  );

export type SnowflakeConfig = z.infer<typeof snowflakeConfigSchema>;
