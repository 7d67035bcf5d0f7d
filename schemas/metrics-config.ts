/**
 * The `metrics:` block (docs/architecture.md#lineage-and-metrics): where each run's gauges go,
 * a Prometheus Pushgateway, a file for node_exporter's textfile collector, or both.
 */
import { z } from 'zod';

export const metricsConfigSchema = z
  .strictObject({
    pushgateway: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://pushgateway:9091' })
      .optional()
      .describe('Pushgateway base URL; the run adds its gauges under job="aivis", workspace="<name>".'),
    textfile: z
      .string()
      .min(1)
      .regex(/\.prom$/, "must end in .prom (node_exporter's textfile collector reads only *.prom files)")
      .optional()
      .describe('File rewritten atomically after each run, in the text exposition format.'),
  })
  .refine((metrics) => metrics.pushgateway !== undefined || metrics.textfile !== undefined, {
    message: 'name pushgateway, textfile or both',
  })
  .describe('Run metrics for Prometheus.');

export type MetricsConfig = z.infer<typeof metricsConfigSchema>;
