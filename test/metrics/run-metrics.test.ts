/**
 * Run metrics of the real `aivis sync` process, pushed to the real Prometheus Pushgateway the
 * test setup started and written to a textfile: scraped back from the gateway's /metrics and
 * read from the file with a real exposition-format parser, they equal the run's truth (the
 * sandbox's requests and 429s, the run row's counts, `aivis status --json`). A failed run
 * leaves the last success in place in both; a gateway that is down costs a warning. Lineage
 * and metrics with no server at all: the file transport and the textfile.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { STREAM_NAMES } from '../../src/streams/registry.ts';
import { runCli } from '../support/cli-process.ts';
import { freePort } from '../setup/free-port.ts';
import { jsonLines } from '../support/json-lines.ts';
import { runEventErrors } from '../support/openlineage-schema.ts';
import { SANDBOX } from '../e2e/sync-suite.ts';
import { expectedTables } from '../e2e/expected-rows.ts';

const gateway = inject('pushgatewayUrl');
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-metrics-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Samples = Map<string, { labels: Record<string, string>; value: number }[]>;

function samplesOf(text: string, keep: (labels: Record<string, string>) => boolean): Samples {
  const samples: Samples = new Map();
  for (const family of parsePrometheusTextFormat(text)) {
    if (!family.name.startsWith('aivis_')) continue;
    const kept = family.metrics
      .map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) }))
      .filter((m) => keep(m.labels));
    if (kept.length > 0) samples.set(family.name, kept);
  }
  return samples;
}

/** One value: the family's only sample, or the one with `stream`. */
function value(samples: Samples, name: string, stream?: string): number | undefined {
  return samples.get(name)?.find((s) => stream === undefined || s.labels.stream === stream)?.value;
}

let counter = 0;

describe('run metrics (real CLI, real Pushgateway, textfile)', () => {
  let sandbox: Sandbox;
  let workspace: string;
  let configPath: string;
  let textfile: string;
  let lineageFile: string;
  let env: NodeJS.ProcessEnv;

  /** The config: one source per entry (by default this test's workspace on its sandbox), metrics to `pushgateway`. */
  const writeConfig = (
    pushgateway: string,
    sources: readonly { name: string; baseUrl: string; keyVariable: string }[] = [
      { name: workspace, baseUrl: sandbox.baseUrl, keyVariable: 'AIVIS_E2E_API_KEY' },
    ],
  ) => {
    const lines = [
      'sources:',
      ...sources.flatMap((source) => [
        `  ${source.name}:`,
        `    base_url: ${source.baseUrl}`,
        `    api_key: \${${source.keyVariable}}`,
        '    requests_per_minute: 6000',
        '    max_retries: 8',
      ]),
      'destination:',
      '  type: duckdb',
      `  path: ./${workspace}.duckdb`,
      'metrics:',
      `  pushgateway: ${pushgateway}`,
      `  textfile: ./${workspace}.prom`,
      'openlineage:',
      `  transport: { type: file, path: ./${workspace}-lineage.jsonl }`,
      '',
    ];
    writeFileSync(configPath, lines.join('\n'));
  };

  beforeEach(async () => {
    sandbox = await startSandbox({ ...SANDBOX, websites: 2, mentionsPerAnalysis: 40 });
    workspace = `metrics${process.pid}x${counter++}`;
    configPath = path.join(dir, `${workspace}.yaml`);
    textfile = path.join(dir, `${workspace}.prom`);
    lineageFile = path.join(dir, `${workspace}-lineage.jsonl`);
    writeConfig(gateway);
    env = { AIVIS_E2E_API_KEY: sandbox.apiKey };
  });
  afterEach(async () => {
    await sandbox.close();
  });

  const scrape = async () =>
    samplesOf(await (await fetch(`${gateway}/metrics`)).text(), (l) => l.job === 'aivis' && l.workspace === workspace);
  const readTextfile = () => samplesOf(readFileSync(textfile, 'utf8'), (l) => l.workspace === workspace);
  const status = async () => {
    const result = await runCli(['status', '--config', configPath, '--json'], env).done;
    return JSON.parse(result.stdout) as {
      last_run: { status: string; counts: { streams: Record<string, { rows: number; rejected: number }> } };
      streams: { stream: string; complete_through: string | null }[];
    };
  };

  it('equal the run: pushed and written after a success, and a failed run keeps the last success', async () => {
    // Two 429s the client waits out: the rate-limited gauge must say 2.
    sandbox.faults.set({ kind: 'rate_limited', count: 2, retryAfter: 0, routes: ['mentions'] });
    const result = await runCli(['sync', '--config', configPath], env).done;
    expect(result.code).toBe(0);
    const truth = await status();
    expect(truth.last_run.status).toBe('succeeded');

    for (const [where, samples] of [
      ['pushgateway', await scrape()],
      ['textfile', readTextfile()],
    ] as const) {
      expect(value(samples, 'aivis_last_run_success'), where).toBe(1);
      expect(value(samples, 'aivis_last_run_exit_code'), where).toBe(0);
      expect(value(samples, 'aivis_api_requests'), where).toBe(sandbox.stats.requests);
      expect(value(samples, 'aivis_api_rate_limited_responses'), where).toBe(2);
      expect(value(samples, 'aivis_last_success_timestamp_seconds'), where).toBe(
        value(samples, 'aivis_last_run_timestamp_seconds'),
      );
      expect(value(samples, 'aivis_last_run_duration_seconds'), where).toBeGreaterThan(0);
      for (const stream of STREAM_NAMES) {
        expect(value(samples, 'aivis_rows_loaded', stream), `${where} ${stream}`).toBe(
          truth.last_run.counts.streams[stream]?.rows ?? 0,
        );
        expect(value(samples, 'aivis_records_rejected', stream), `${where} ${stream}`).toBe(0);
        const completeThrough = truth.streams.find((s) => s.stream === stream)?.complete_through;
        expect(completeThrough, stream).toBeTruthy();
        expect(value(samples, 'aivis_complete_through_timestamp_seconds', stream), `${where} ${stream}`).toBe(
          Date.parse(completeThrough!) / 1000,
        );
      }
      expect(value(samples, 'aivis_rows_loaded', 'mentions'), where).toBe(
        expectedTables(sandbox).get('mentions')?.length,
      );
    }
    const lastSuccess = value(await scrape(), 'aivis_last_success_timestamp_seconds');

    // A key the API refuses: the run fails, its gauges say so, the last success stays.
    const failed = await runCli(['sync', '--config', configPath], { AIVIS_E2E_API_KEY: 'refused-key-81d3a5' }).done;
    expect(failed.code).toBe(1);
    for (const [where, samples] of [
      ['pushgateway', await scrape()],
      ['textfile', readTextfile()],
    ] as const) {
      expect(value(samples, 'aivis_last_run_success'), where).toBe(0);
      expect(value(samples, 'aivis_last_run_exit_code'), where).toBe(1);
      expect(value(samples, 'aivis_rows_loaded', 'mentions'), where).toBe(0);
      expect(value(samples, 'aivis_last_success_timestamp_seconds'), where).toBe(lastSuccess);
      expect(value(samples, 'aivis_last_run_timestamp_seconds'), where).toBeGreaterThan(lastSuccess!);
    }

    // And lineage without a server: the file transport holds both runs' events, valid.
    const events = readFileSync(lineageFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => [e.eventType, e.job.name])).toEqual([
      ['START', `${workspace}.sync`],
      ['COMPLETE', `${workspace}.sync`],
      ['START', `${workspace}.sync`],
      ['FAIL', `${workspace}.sync`],
    ]);
    for (const event of events) expect(runEventErrors(event)).toEqual([]);
    expect(readFileSync(lineageFile, 'utf8')).not.toContain('refused-key-81d3a5');
  });

  it('two workspaces of one process: each its own gateway group and its own samples in one textfile', async () => {
    const other = await startSandbox({ ...SANDBOX, seed: 11, websites: 1, mentionsPerAnalysis: 40 });
    try {
      const second = `${workspace}b`;
      writeConfig(gateway, [
        { name: workspace, baseUrl: sandbox.baseUrl, keyVariable: 'AIVIS_KEY_A' },
        { name: second, baseUrl: other.baseUrl, keyVariable: 'AIVIS_KEY_B' },
      ]);
      const result = await runCli(['sync', '--config', configPath], {
        AIVIS_KEY_A: sandbox.apiKey,
        AIVIS_KEY_B: other.apiKey,
      }).done;
      expect(result.code).toBe(0);
      const text = readFileSync(textfile, 'utf8');
      const pushed = await (await fetch(`${gateway}/metrics`)).text();
      for (const [name, s] of [
        [workspace, sandbox],
        [second, other],
      ] as const) {
        const inFile = samplesOf(text, (l) => l.workspace === name);
        const inGateway = samplesOf(pushed, (l) => l.job === 'aivis' && l.workspace === name);
        for (const samples of [inFile, inGateway]) {
          expect(value(samples, 'aivis_api_requests'), name).toBe(s.stats.requests);
          expect(value(samples, 'aivis_last_run_success'), name).toBe(1);
        }
      }
    } finally {
      await other.close();
    }
  });

  it('a destination that cannot be opened: the run fails, and lineage and metrics say so', async () => {
    // A folder where the database file should be: refused as not a DuckDB database (exit 2).
    mkdirSync(path.join(dir, `${workspace}-folder.duckdb`));
    writeFileSync(
      configPath,
      readFileSync(configPath, 'utf8').replace(`path: ./${workspace}.duckdb`, `path: ./${workspace}-folder.duckdb`),
    );
    const result = await runCli(['sync', '--config', configPath], env).done;
    expect(result.code).toBe(2);
    const message = String(jsonLines(result.stderr).at(-1)?.msg);
    for (const samples of [await scrape(), readTextfile()]) {
      expect(value(samples, 'aivis_last_run_success')).toBe(0);
      expect(value(samples, 'aivis_last_run_exit_code')).toBe(2);
      expect(value(samples, 'aivis_api_requests')).toBe(0);
      expect(samples.has('aivis_last_success_timestamp_seconds')).toBe(false);
    }
    const events = readFileSync(lineageFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.eventType)).toEqual(['START', 'FAIL']);
    expect(events[1].run.facets.errorMessage.message).toBe(message);
    for (const event of events) expect(runEventErrors(event)).toEqual([]);
  });

  it('a gateway that is down costs a warning, never the run; the textfile is still written', async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    const ready = await runCli(['check', '--config', configPath], env).done;
    expect(ready.code).toBe(0);
    expect(ready.stdout).toContain(`ok   metrics: Pushgateway ${gateway}: ready\n`);
    expect(ready.stdout).toContain(`ok   metrics: textfile ${textfile}: its folder is writable\n`);
    writeConfig(down);
    const checked = await runCli(['check', '--config', configPath], env).done;
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(
      new RegExp(`warn metrics: Pushgateway ${down}: not reachable \\(.*\\); runs will warn and go on\\n`),
    );
    const result = await runCli(['sync', '--config', configPath], env).done;
    expect(result.code).toBe(0);
    const warnings = jsonLines(result.stderr).filter(
      (l) => l.msg === 'run metrics not published; the run goes on without them',
    );
    expect(warnings.map((w) => [w.level, w.workspace, w.target])).toEqual([['warn', workspace, down]]);
    expect(value(readTextfile(), 'aivis_last_run_success')).toBe(1);
  });
});
