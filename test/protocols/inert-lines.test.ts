/**
 * Every machine-readable output stays one line per message, whatever text the API sends: a
 * record, an error message and a served-contract description holding a line separator
 * (U+2028), a next line (U+0085), a right-to-left override (U+202E) and an escape (U+001B)
 * reach `aivis airbyte check | discover | read`, `tap-aivis`, `aivis status --json` and the
 * JSON logs escaped (`\u2028`), and `JSON.parse` gives back the exact text. Real processes
 * against the sandbox over loopback.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type FaultProfile, type Sandbox, type SandboxVariant, startSandbox } from '../../src/sandbox/index.ts';
import { ODD_DESCRIPTION } from '../../src/sandbox/served-contract.ts';
import { runCli } from '../support/cli-process.ts';
import { airbyteMessages, singerMessages } from '../support/protocol-messages.ts';
import { writeSandboxConfig } from '../support/sandbox-config.ts';
import { airbyte, catalogFile, configFile, jsonFile, tap } from './protocol-world.ts';

/** What a record's text holds: each character one a line reader, a terminal or a bidi renderer acts on. */
const HOSTILE = 'one\u2028two\u0085three \u202Eevil\u202C \u001b[2J end';
/** Characters no machine line may hold raw (a newline only as its end). */
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u;
/** Line ends as a line-based reader may count them (Python's `str.splitlines`, JavaScript's `^`/`$` with `m`). */
const LINE_ENDS = /\r\n|[\n\v\f\r\u001c-\u001e\u0085\u2028\u2029]/;

/** The lines of an output, after checking it holds nothing raw and every reader counts the same lines. */
function inertLines(output: string): string[] {
  expect(output).not.toMatch(RAW);
  const lines = output.split('\n').filter(Boolean);
  expect(output.split(LINE_ENDS).filter(Boolean)).toHaveLength(lines.length);
  return lines;
}

/** A server error whose message is `HOSTILE`, on every attempt (retried at once: `Retry-After: 0`). */
const hostileError = (routes: string[]): FaultProfile => ({
  kind: 'internal_error',
  retryAfter: 0,
  message: HOSTILE,
  routes,
});
/** The first mention of a scan says `HOSTILE` (a valid record: the spec sets nothing on the text). */
const hostileRecord: FaultProfile = {
  kind: 'malformed_record',
  routes: ['mentions'],
  field: 'sentence_text',
  value: HOSTILE,
};

let sandbox: Sandbox;
async function open(...variants: SandboxVariant[]) {
  sandbox = await startSandbox({ seed: 11, websites: 2, requestsPerMinute: 0, variants });
  return sandbox;
}
afterEach(async () => {
  await sandbox.close();
});

/** The JSON log lines of stderr, parsed. */
const logLines = (stderr: string) =>
  inertLines(stderr).map((line) => JSON.parse(line) as { level: string; msg: string });

describe('aivis airbyte', () => {
  it("check: the server's words in CONNECTION_STATUS escaped, parsed back exactly", async () => {
    await open();
    sandbox.faults.set(hostileError(['websites.list']));
    const result = await airbyte(sandbox, ['check', '--config', configFile(sandbox)]);
    expect(result.code).toBe(0);
    expect(inertLines(result.stdout)).toHaveLength(1);
    const [message] = airbyteMessages(result.stdout);
    expect(message!.connectionStatus!.status).toBe('FAILED');
    expect(message!.connectionStatus!.message).toContain(HOSTILE);
  });

  it('discover: a served description in CATALOG escaped, parsed back exactly', async () => {
    await open('contract_odd_description');
    const result = await airbyte(sandbox, ['discover', '--config', configFile(sandbox)]);
    expect(result.code).toBe(0);
    expect(inertLines(result.stdout)).toHaveLength(1);
    const [message] = airbyteMessages(result.stdout);
    const mentions = message!.catalog!.streams.find((s) => s.name === 'mentions') as {
      json_schema: { properties: Record<string, { description: string }> };
    };
    expect(mentions.json_schema.properties.odd_note!.description).toContain(ODD_DESCRIPTION);
  });

  it('read: a record and an error TRACE escaped, one line per message, the record parsed back exactly', async () => {
    await open('contract_odd_description');
    sandbox.faults.set({ ...hostileRecord, count: 1 });
    sandbox.faults.set(hostileError(['citations']));
    const result = await airbyte(sandbox, [
      'read',
      '--config',
      configFile(sandbox),
      '--catalog',
      catalogFile(['mentions', 'citations']),
    ]);
    expect(result.code).toBe(1);
    const lines = inertLines(result.stdout);
    const messages = airbyteMessages(result.stdout);
    expect(messages).toHaveLength(lines.length);
    const hostile = messages.filter((m) => m.record?.data.sentence_text === HOSTILE);
    expect(hostile).toHaveLength(1);
    expect((hostile[0]!.record!.data._raw as { sentence_text: string }).sentence_text).toBe(HOSTILE);
    const errors = messages.flatMap((m) => (m.trace?.error ? [m.trace.error] : []));
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error).toMatchObject({ stream_descriptor: { name: 'citations' } });
      expect(error.message).toContain(HOSTILE);
    }
    expect(messages.some((m) => m.type === 'STATE')).toBe(true);
    for (const line of logLines(result.stderr)) expect(line.msg).not.toMatch(RAW);
  });
});

describe('tap-aivis', () => {
  it('--discover: a served description escaped, parsed back exactly', async () => {
    await open('contract_odd_description');
    const result = await tap(sandbox, ['--config', configFile(sandbox), '--discover']);
    expect(result.code).toBe(0);
    const [line, ...rest] = inertLines(result.stdout);
    expect(rest).toEqual([]);
    const catalog = JSON.parse(line!) as {
      streams: { tap_stream_id: string; schema: { properties: Record<string, { description: string }> } }[];
    };
    const mentions = catalog.streams.find((s) => s.tap_stream_id === 'mentions')!;
    expect(mentions.schema.properties.odd_note!.description).toContain(ODD_DESCRIPTION);
  });

  it('SCHEMA, RECORD and STATE escaped, the error log line too; each parsed back exactly', async () => {
    await open('contract_odd_description');
    sandbox.faults.set({ ...hostileRecord, count: 1 });
    sandbox.faults.set(hostileError(['citations']));
    const catalog = jsonFile('catalog.json', {
      streams: ['mentions', 'citations'].map((name) => ({
        tap_stream_id: name,
        stream: name,
        schema: {},
        metadata: [{ breadcrumb: [], metadata: { selected: true } }],
      })),
    });
    const result = await tap(sandbox, ['--config', configFile(sandbox), '--catalog', catalog]);
    expect(result.code).toBe(1);
    const lines = inertLines(result.stdout);
    const messages = singerMessages(result.stdout);
    expect(messages).toHaveLength(lines.length);
    const schema = messages.find((m) => m.type === 'SCHEMA' && m.stream === 'mentions');
    const properties = (schema?.type === 'SCHEMA' ? schema.schema.properties : {}) as Record<
      string,
      { description: string }
    >;
    expect(properties.odd_note!.description).toContain(ODD_DESCRIPTION);
    const hostile = messages.filter((m) => m.type === 'RECORD' && m.record.sentence_text === HOSTILE);
    expect(hostile).toHaveLength(1);
    expect(messages.some((m) => m.type === 'STATE')).toBe(true);
    // The server's words reach the JSON log lines (a field of the failure's line) escaped too.
    const quoting = logLines(result.stderr).filter((line) =>
      Object.values(line).some((value) => typeof value === 'string' && value.includes(HOSTILE)),
    );
    expect(quoting.length).toBeGreaterThan(0);
  });
});

describe('aivis status --json', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-inert-lines-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a failed run's error quoting the server: one line, escaped, parsed back exactly", async () => {
    await open();
    sandbox.faults.set(hostileError(['websites.list']));
    const config = writeSandboxConfig(path.join(dir, 'aivis.yaml'), sandbox.baseUrl, [
      '  type: duckdb',
      `  path: ${path.join(dir, 'w.duckdb')}`,
    ]);
    const env = { AIVIS_API_KEY: sandbox.apiKey };
    const synced = await runCli(['sync', '--config', config], env).done;
    expect(synced.code).not.toBe(0);
    for (const line of logLines(synced.stderr)) expect(typeof line.msg).toBe('string');

    const status = await runCli(['status', '--config', config, '--json'], env).done;
    expect(status.code).toBe(4);
    const [line, ...rest] = inertLines(status.stdout);
    expect(rest).toEqual([]);
    const report = JSON.parse(line!) as { last_run: { status: string; error: string } };
    expect(report.last_run.status).toBe('failed');
    expect(report.last_run.error).toContain(HOSTILE);
  });
});
