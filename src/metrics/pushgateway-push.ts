/**
 * Adds a run's gauges to a Prometheus Pushgateway under the grouping key `job="aivis"`,
 * `workspace="<name>"` with prom-client. POST (`pushAdd`) replaces only the metric names it
 * sends, so the last success a failed run does not send stays in place. The push has
 * `PUSH_TIMEOUT_MS` in all.
 */
import { Pushgateway } from 'prom-client';
import type { MetricFamily } from './metric-families.ts';
import { metricRegistry } from './metric-registry.ts';

export const PUSH_TIMEOUT_MS = 5_000;
export const PUSH_JOB = 'aivis';

export async function pushRunMetrics(gatewayUrl: string, workspace: string, families: readonly MetricFamily[]) {
  const gateway = new Pushgateway(
    gatewayUrl,
    { timeout: PUSH_TIMEOUT_MS, signal: AbortSignal.timeout(PUSH_TIMEOUT_MS) },
    metricRegistry(families),
  );
  await gateway.pushAdd({ jobName: PUSH_JOB, groupings: { workspace } });
}
