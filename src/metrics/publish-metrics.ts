/**
 * Sends a run's gauges where `metrics:` says (Pushgateway, textfile, both). A gateway that is
 * down or a file that cannot be written is a warning: metrics never cost the run.
 */
import type { MetricsConfig } from '../../schemas/metrics-config.ts';
import type { Logger } from '../log/logger.ts';
import type { MetricFamily } from './metric-families.ts';
import { pushRunMetrics } from './pushgateway-push.ts';
import { writeRunMetricsFile } from './metrics-textfile.ts';

export async function publishRunMetrics(
  metrics: MetricsConfig | undefined,
  workspace: string,
  families: readonly MetricFamily[],
  logger: Logger,
): Promise<void> {
  const attempt = async (target: string, task: () => Promise<void>) => {
    try {
      await task();
    } catch (error) {
      logger.warn('run metrics not published; the run goes on without them', {
        workspace,
        target,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };
  const { pushgateway, textfile } = metrics ?? {};
  await Promise.all([
    pushgateway && attempt(pushgateway, () => pushRunMetrics(pushgateway, workspace, families)),
    textfile && attempt(textfile, () => writeRunMetricsFile(textfile, workspace, families)),
  ]);
}
