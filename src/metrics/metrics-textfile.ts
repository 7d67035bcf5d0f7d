/**
 * The run's gauges in a file for node_exporter's textfile collector, with the Pushgateway's
 * add semantics: the file keeps every other workspace's samples and every metric this run does
 * not set (a failed run's file still holds the last success), and this run's metrics replace
 * their earlier samples of its workspace. Samples carry `workspace` (the collector's scrape
 * sets `job`). Rewritten atomically: the collector never reads half a file. Within a process
 * the writes to one file take turns; two processes writing one file at once may lose one
 * run's samples until its next run (give each its own file, e.g. per shard).
 */
import { readFile } from 'node:fs/promises';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { writeFileAtomically } from '../files/atomic-write.ts';
import type { MetricFamily } from './metric-families.ts';
import { metricRegistry } from './metric-registry.ts';

/** Writes in progress per file: the workspaces of one process finish at once, and each must read the other's write. */
const writing = new Map<string, Promise<void>>();

export function writeRunMetricsFile(file: string, workspace: string, families: readonly MetricFamily[]): Promise<void> {
  const previous = writing.get(file) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => mergeInto(file, workspace, families));
  writing.set(file, next);
  const forget = () => {
    if (writing.get(file) === next) writing.delete(file);
  };
  next.then(forget, forget);
  return next;
}

async function mergeInto(file: string, workspace: string, families: readonly MetricFamily[]): Promise<void> {
  const earlier = await readEarlier(file);
  const merged = new Map<string, MetricFamily>();
  for (const family of earlier) {
    const replaced = families.some((f) => f.name === family.name);
    const samples = replaced ? family.samples.filter((s) => s.labels.workspace !== workspace) : family.samples;
    merged.set(family.name, { ...family, samples });
  }
  for (const family of families) {
    const samples = family.samples.map((s) => ({ labels: { ...s.labels, workspace }, value: s.value }));
    merged.set(family.name, { ...family, samples: [...(merged.get(family.name)?.samples ?? []), ...samples] });
  }
  const text = await metricRegistry([...merged.values()]).metrics();
  await writeFileAtomically(file, text);
}

/** The file's gauges, or none when it does not exist yet. */
async function readEarlier(file: string): Promise<MetricFamily[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return parsePrometheusTextFormat(text)
    .filter((family) => family.type === 'GAUGE')
    .map((family) => ({
      name: family.name,
      help: family.help,
      samples: family.metrics.map((metric) => ({ labels: metric.labels ?? {}, value: Number(metric.value) })),
    }));
}
