/** The `destination: { type: bigquery }` block (docs/destinations/bigquery.md). */
import { z } from 'zod';
import { allowInsecureHttp, identifier, nonEmpty } from '../config-fields.ts';
import { refuseInsecureHttp } from '../insecure-http.ts';

export const bigqueryConfigSchema = z
  .strictObject({
    type: z.literal('bigquery'),
    project: z
      .string()
      .regex(
        /^[a-z0-9.:-]{1,128}$/,
        'must be a Google Cloud project id such as my-project (lowercase letters, digits, hyphens; a domain prefix like example.com:my-project)',
      ),
    dataset: identifier.default('aivis'),
    location: nonEmpty.default('US'),
    key_file: nonEmpty.optional().describe('Service-account key file; Application Default Credentials when absent.'),
    api_endpoint: z.url().optional().describe('Override of the BigQuery REST endpoint (private endpoints, emulators).'),
    job_timeout_seconds: z
      .number()
      .int()
      .min(10)
      .max(21_600)
      .optional()
      .describe(
        "Each query job's jobTimeoutMs (default 600); aivis stops waiting for a job (and cancels it) a minute later.",
      ),
    allow_insecure_http: allowInsecureHttp,
  })
  .superRefine(
    refuseInsecureHttp({
      urlKey: 'api_endpoint',
      block: 'destination',
      carries: 'the Google access token and the rows',
    }),
  );

export type BigqueryConfig = z.infer<typeof bigqueryConfigSchema>;
