/**
 * The `openlineage:` block, shaped like the OpenLineage clients' `openlineage.yml`
 * (docs/architecture.md#lineage-and-metrics): a namespace and one transport. Without the block
 * the ecosystem's variables (`OPENLINEAGE_URL`, ...) configure it (`src/lineage/lineage-settings.ts`).
 */
import { z } from 'zod';
import { refuseInsecureHttp } from './insecure-http.ts';

const nonEmpty = z.string().min(1);

/** Seconds an event may take to be accepted before the run goes on without it (the Python client's default). */
export const DEFAULT_LINEAGE_TIMEOUT_SECONDS = 5;

const apiKeyAuthSchema = z
  .strictObject({
    type: z.literal('api_key'),
    apiKey: nonEmpty.optional().describe('Write it as ${OPENLINEAGE_API_KEY}; a key written into the YAML is refused.'),
    apiKeyFile: nonEmpty.optional().describe('Path of a file holding the API key (e.g. a mounted Secret).'),
  })
  .refine((auth) => (auth.apiKey === undefined) !== (auth.apiKeyFile === undefined), {
    message: 'give exactly one of apiKey (as ${VAR}) or apiKeyFile',
  });

const httpTransportSchema = z
  .strictObject({
    type: z.literal('http'),
    url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://marquez.example.com' }),
    endpoint: nonEmpty.default('api/v1/lineage').describe('Path under url that receives the events.'),
    timeout: z
      .number()
      .positive()
      .max(60)
      .default(DEFAULT_LINEAGE_TIMEOUT_SECONDS)
      .describe('Seconds an event may take; after that the run goes on without it (a warning).'),
    auth: apiKeyAuthSchema.optional(),
    allow_insecure_http: z
      .boolean()
      .optional()
      .describe('true lets url be http:// to a host that is not loopback: the key and events cross in clear.'),
  })
  .superRefine(
    refuseInsecureHttp({ urlKey: 'url', block: 'openlineage.transport', carries: 'the lineage API key and events' }),
  );

const fileTransportSchema = z.strictObject({
  type: z.literal('file'),
  path: nonEmpty.describe('File the events are appended to, one JSON object a line.'),
});

const consoleTransportSchema = z.strictObject({ type: z.literal('console') });

export const lineageTransportSchema = z.discriminatedUnion('type', [
  httpTransportSchema,
  fileTransportSchema,
  consoleTransportSchema,
]);

export const openlineageConfigSchema = z
  .strictObject({
    namespace: nonEmpty.optional().describe("The jobs' namespace; default $OPENLINEAGE_NAMESPACE, else aivis."),
    transport: lineageTransportSchema,
  })
  .describe('OpenLineage run events, shaped like openlineage.yml; without it OPENLINEAGE_URL configures them.');

export type OpenlineageConfig = z.infer<typeof openlineageConfigSchema>;
export type LineageTransportConfig = z.infer<typeof lineageTransportSchema>;
