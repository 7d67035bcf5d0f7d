/** Metric families as a prom-client registry: prom-client writes the exposition format and pushes it. */
import { Gauge, Registry } from 'prom-client';
import type { MetricFamily } from './metric-families.ts';

export function metricRegistry(families: readonly MetricFamily[]): Registry {
  const registry = new Registry();
  for (const family of families) {
    const labelNames = [...new Set(family.samples.flatMap((sample) => Object.keys(sample.labels)))];
    const gauge = new Gauge({ name: family.name, help: family.help, labelNames, registers: [registry] });
    for (const sample of family.samples) gauge.set(sample.labels, sample.value);
  }
  return registry;
}
