/** The textfile's add semantics, read back with a real exposition-format parser. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, expect, it } from 'vitest';
import { writeRunMetricsFile } from '../../src/metrics/metrics-textfile.ts';
import { runMetrics, type RunMetricsInput } from '../../src/metrics/run-metrics.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-textfile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (finishedAt: string, succeeded: boolean): RunMetricsInput => ({
  finishedAt: new Date(finishedAt),
  durationSeconds: 3,
  exitCode: succeeded ? 0 : 1,
  succeeded,
  streams: ['mentions'],
  streamCounts: { mentions: { rows: succeeded ? 40 : 0, rejected: 0 } },
  apiRequests: 5,
  rateLimitedResponses: 0,
});

/** `name`'s value per workspace. */
function values(file: string, name: string): Record<string, number> {
  const family = parsePrometheusTextFormat(readFileSync(file, 'utf8')).find((f) => f.name === name);
  return Object.fromEntries((family?.metrics ?? []).map((m) => [m.labels?.workspace ?? '', Number(m.value)]));
}

it('keeps every workspace when two write at once, and a failed run keeps the last success', async () => {
  const file = path.join(dir, 'aivis.prom');
  await Promise.all([
    writeRunMetricsFile(file, 'acme', runMetrics(run('2026-01-02T03:00:00Z', true))),
    writeRunMetricsFile(file, 'globex', runMetrics(run('2026-01-02T03:00:10Z', true))),
  ]);
  expect(values(file, 'aivis_last_success_timestamp_seconds')).toEqual({ acme: 1767322800, globex: 1767322810 });
  await writeRunMetricsFile(file, 'acme', runMetrics(run('2026-01-02T04:00:00Z', false)));
  expect(values(file, 'aivis_last_success_timestamp_seconds')).toEqual({ acme: 1767322800, globex: 1767322810 });
  expect(values(file, 'aivis_last_run_success')).toEqual({ acme: 0, globex: 1 });
  expect(values(file, 'aivis_rows_loaded')).toEqual({ acme: 0, globex: 40 });
});
