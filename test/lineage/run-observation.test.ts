/**
 * A run's observation (lineage and metrics) never replaces what the run returns or throws:
 * a destination URL no dataset name can be built from, the config built in code where the
 * schema never saw it, is a warning and nothing more.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { citationsTable } from '../../src/tables/index.ts';
import type { RunSummary } from '../../src/sync/run-sync.ts';
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

  it("shows the columns schema evolution gave a table in the COMPLETE event's schema facet", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-lineage-'));
    try {
      const config = configSchemaOf().parse({
        source: { base_url: 'http://127.0.0.1:9', api_key: 'k' },
        destination: { type: 'duckdb', path: ':memory:' },
        streams: { citations: {} },
      });
      const counters = new RunCounters();
      const file = path.join(dir, 'lineage.jsonl');
      const observed = observeRun({
        config,
        lineage: { namespace: 'aivis', target: { type: 'file', path: file } },
        workspace: 'default',
        baseUrl: 'http://127.0.0.1:9',
        command: 'sync',
        streams: undefined,
        counters,
        clientStats: createClientStats(),
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      });
      const url = { name: 'url', type: 'string' as const, nullable: true, description: 'The cited page.' };
      counters.evolvedTables = [{ ...citationsTable, columns: [...citationsTable.columns, url] }];
      await observed.finish({ summary: { exitCode: 0 } as RunSummary, signal: new AbortController().signal });
      const events = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const complete = events.find((event) => event.eventType === 'COMPLETE');
      const citations = complete.outputs.find((o: { name: string }) => o.name.endsWith('.citations'));
      expect(citations.facets.schema.fields.map((f: { name: string }) => f.name)).toContain('url');
      const start = events.find((event) => event.eventType === 'START');
      const announced = start.outputs.find((o: { name: string }) => o.name.endsWith('.citations'));
      expect(announced.facets.schema.fields.map((f: { name: string }) => f.name)).not.toContain('url');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
