/**
 * A run's observation (lineage and metrics) never replaces what the run returns or throws:
 * a destination URL no dataset name can be built from, the config built in code where the
 * schema never saw it, is a warning and nothing more.
 */
import { describe, expect, it } from 'vitest';
import { configSchemaOf } from '../../connectors/registry.ts';
import { createClientStats } from '../../src/client/client-stats.ts';
import { observeRun } from '../../src/cli/run-observation.ts';
import type { Logger } from '../../src/log/logger.ts';
import { RunCounters } from '../../src/sync/run-counters.ts';

describe('observeRun', () => {
  it('warns, and neither throws nor changes the outcome, when a dataset name cannot be built', async () => {
    const config = configSchemaOf().parse({
      source: { base_url: 'http://127.0.0.1:9', api_key: 'k' },
      destination: { type: 'postgres', url: 'postgres://u@localhost/db' },
    });
    const unparsable = { ...config, destination: { ...config.destination, url: 'postgres://u:a#b@localhost/db' } };
    const warnings: string[] = [];
    const logger: Logger = { debug() {}, info() {}, error() {}, warn: (message) => warnings.push(message) };
    const observed = observeRun({
      config: unparsable,
      lineage: undefined,
      workspace: 'default',
      baseUrl: 'http://127.0.0.1:9',
      command: 'sync',
      streams: undefined,
      counters: new RunCounters(),
      clientStats: createClientStats(),
      logger,
    });
    await observed.finish({ error: new Error('the real failure'), signal: new AbortController().signal });
    expect(warnings).toEqual(['lineage and metrics of the run not published; the run goes on without them']);
  });
});
