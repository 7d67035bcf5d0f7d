/**
 * `tap-aivis` as Meltano runs it: the real process against the sandbox over loopback, every
 * stdout line a Singer message of the SDK's shapes, records compared with the sandbox's truth.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROTOCOL_STREAMS } from '../../src/protocols/protocol-streams.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { type SingerMessage, singerMessages, wholeLines } from '../support/protocol-messages.ts';
import { until } from '../support/until.ts';
import { SANDBOX } from '../e2e/sync-suite.ts';
import { configFile, finished, jsonFile, latestRows, tap, truthRows } from './protocol-world.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox(SANDBOX);
});
afterEach(async () => {
  await sandbox.close();
});

type CatalogEntry = {
  tap_stream_id: string;
  metadata: { breadcrumb: string[]; metadata: Record<string, unknown> }[];
};

const records = (messages: readonly SingerMessage[]) =>
  messages.flatMap((m) => (m.type === 'RECORD' ? [{ stream: m.stream, data: m.record }] : []));
const lastState = (messages: readonly SingerMessage[]) =>
  messages.findLast((m): m is Extract<SingerMessage, { type: 'STATE' }> => m.type === 'STATE')!.value;

async function discover(): Promise<{ streams: CatalogEntry[] }> {
  const result = await tap(sandbox, ['--config', configFile(sandbox), '--discover']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as { streams: CatalogEntry[] };
}

/** The discovered catalog with these streams selected, and these properties (stream.property) deselected. */
function select(catalog: { streams: CatalogEntry[] }, streams: readonly string[], deselected: readonly string[] = []) {
  return jsonFile('catalog.json', {
    streams: catalog.streams.map((entry) => ({
      ...entry,
      metadata: entry.metadata.map((m) =>
        m.breadcrumb.length === 0
          ? { ...m, metadata: { ...m.metadata, selected: streams.includes(entry.tap_stream_id) } }
          : deselected.includes(`${entry.tap_stream_id}.${m.breadcrumb[1]}`)
            ? { ...m, metadata: { ...m.metadata, selected: false } }
            : m,
      ),
    })),
  });
}

describe('tap-aivis', () => {
  it('--discover prints a catalog with stream and property metadata', async () => {
    const catalog = await discover();
    expect(catalog.streams.map((s) => s.tap_stream_id)).toEqual(PROTOCOL_STREAMS.map((s) => s.name));
    const mentions = catalog.streams.find((s) => s.tap_stream_id === 'mentions')!;
    expect(mentions.metadata[0]).toEqual({
      breadcrumb: [],
      metadata: {
        'table-key-properties': ['id'],
        'forced-replication-method': 'INCREMENTAL',
        'valid-replication-keys': [],
        inclusion: 'available',
        'selected-by-default': true,
      },
    });
    expect(mentions.metadata.find((m) => m.breadcrumb[1] === 'id')!.metadata).toEqual({ inclusion: 'automatic' });
    expect(mentions.metadata.find((m) => m.breadcrumb[1] === 'sentence_text')!.metadata).toEqual({
      inclusion: 'available',
      'selected-by-default': true,
    });
    expect(
      catalog.streams.find((s) => s.tap_stream_id === 'analytics_latest')!.metadata[0]!.metadata[
        'forced-replication-method'
      ],
    ).toBe('FULL_TABLE');
  });

  it('syncs the truth of every selected stream, SCHEMA first; its STATE value resumes a second sync at the frontier', async () => {
    const catalog = await discover();
    const all = select(
      catalog,
      PROTOCOL_STREAMS.map((s) => s.name),
    );
    const config = configFile(sandbox);
    const first = await tap(sandbox, ['--config', config, '--catalog', all]);
    expect(first.code).toBe(0);
    const messages = singerMessages(first.stdout);
    expect(latestRows(records(messages))).toEqual(truthRows(sandbox));
    for (const { name } of PROTOCOL_STREAMS) {
      const schema = messages.findIndex((m) => m.type === 'SCHEMA' && m.stream === name);
      expect(schema).toBeGreaterThan(-1);
      expect(schema).toBeLessThan(messages.findIndex((m) => m.type === 'RECORD' && m.stream === name));
    }
    const state = lastState(messages) as { bookmarks: Record<string, { format_version: number; base_url: string }> };
    expect(Object.keys(state.bookmarks).sort()).toEqual(['analytics_history', 'citations', 'mentions', 'websites']);

    sandbox.clock.advance({ days: 2 });
    const second = await tap(sandbox, [
      '--config',
      config,
      '--properties',
      all,
      '--state',
      jsonFile('state.json', state),
    ]);
    expect(second.code).toBe(0);
    const again = singerMessages(second.stdout);
    const before = records(messages).filter((r) => r.stream === 'mentions').length;
    const read = records(again).filter((r) => r.stream === 'mentions').length;
    const truth = truthRows(sandbox);
    expect(latestRows([...records(messages), ...records(again)]).get('mentions')).toEqual(truth.get('mentions'));
    expect(read).toBeGreaterThanOrEqual(truth.get('mentions')!.length - before);
    expect(read).toBeLessThan(before);
  });

  it('reads only the selected streams and keeps only the selected properties (the key always)', async () => {
    const catalog = select(await discover(), ['mentions', 'websites'], ['mentions.sentence_text', 'mentions.id']);
    const result = await tap(sandbox, ['--config', configFile(sandbox), '--catalog', catalog]);
    expect(result.code).toBe(0);
    const messages = singerMessages(result.stdout);
    expect(messages.filter((m) => m.type === 'SCHEMA').map((m) => m.stream)).toEqual(['websites', 'mentions']);
    const mentions = records(messages).filter((r) => r.stream === 'mentions');
    expect(mentions.length).toBe(truthRows(sandbox).get('mentions')!.length);
    expect(Object.keys(mentions[0]!.data)).toContain('id');
    expect(Object.keys(mentions[0]!.data)).not.toContain('sentence_text');
    expect(new Set(records(messages).map((r) => r.stream))).toEqual(new Set(['websites', 'mentions']));
  });

  it('killed after its first STATE and resumed from the last STATE it printed, loses nothing', async () => {
    await sandbox.close();
    sandbox = await startSandbox({ ...SANDBOX, mentionsPerAnalysis: 1500, citationsPerAnalysis: 300 });
    const config = configFile(sandbox);
    const { child, done } = runCli(['--config', config], {}, { entry: 'src/cli/tap-main.ts' });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => (out += d));
    await until(() => /"type":"STATE".*"cursor":"/.test(out), 'a STATE with a mid-scan cursor');
    child.kill('SIGKILL');
    const killed = await finished(sandbox, done);
    const before = singerMessages(wholeLines(killed.stdout));
    const stateAt = before.findLastIndex((m) => m.type === 'STATE');
    const resumed = await tap(sandbox, ['--config', config, '--state', jsonFile('state.json', lastState(before))]);
    expect(resumed.code).toBe(0);
    // The records a STATE covered: those before the last one (Singer's state is one value for every stream).
    const covered = records(before.slice(0, stateAt)).filter((r) =>
      ['mentions', 'citations', 'analytics_history', 'websites'].includes(r.stream),
    );
    expect(covered.length).toBeGreaterThan(0);
    expect(latestRows([...covered, ...records(singerMessages(resumed.stdout))])).toEqual(truthRows(sandbox));
  });

  it('a server breaking the contract exits 1 after the other websites records and states', async () => {
    const id = sandbox.truth.websites().find((w) => w.last_analysis_at !== null)!.id;
    sandbox.faults.set({ kind: 'bound_future', routes: ['mentions'], websites: [id] });
    const result = await tap(sandbox, ['--config', configFile(sandbox)]);
    expect(result.code).toBe(1);
    const messages = singerMessages(result.stdout);
    const truth = truthRows(sandbox);
    expect(latestRows(records(messages)).get('mentions')).toEqual(
      truth.get('mentions')!.filter((r) => r.website_id !== id),
    );
    expect(result.stderr).toContain(`website ${id}: `);
    const scopes = Object.keys(
      (lastState(messages) as { bookmarks: { mentions: { scopes: object } } }).bookmarks.mentions.scopes,
    );
    expect(scopes.length).toBe(sandbox.truth.websites().length - 1);
  });

  it('bad input: one line on stderr, exit 2, nothing on stdout', async () => {
    const config = configFile(sandbox);
    const otherApi = jsonFile('state.json', {
      bookmarks: { mentions: { format_version: 1, base_url: 'https://api.example.com', scopes: {} } },
    });
    const badCatalog = jsonFile('catalog.json', { streams: [{ tap_stream_id: 'prompts', metadata: [] }] });
    const cases: [string[], string][] = [
      [['--config', '/nonexistent/config.json'], 'tap-aivis: config file /nonexistent/config.json: not found'],
      [
        ['--config', config, '--bogus'],
        "tap-aivis: Unknown option '--bogus'; usage: tap-aivis --config FILE [--state FILE] [--catalog FILE | --properties FILE] [--discover]",
      ],
      [
        ['--config', config, '--catalog', badCatalog],
        `tap-aivis: --catalog file ${badCatalog}: streams[0]: tap_stream_id "prompts" is not an aivis stream (${PROTOCOL_STREAMS.map((s) => s.name).join(', ')})`,
      ],
      [
        ['--config', config, '--state', otherApi],
        `tap-aivis: state file ${otherApi}: bookmarks.mentions: written for base_url "https://api.example.com", not ${sandbox.baseUrl}: a state of another API is not resumed from. Start from an empty state to read this one from the beginning`,
      ],
    ];
    for (const [args, line] of cases) {
      const result = await tap(sandbox, args);
      expect([args, result.code, result.stdout, result.stderr]).toEqual([args, 2, '', `${line}\n`]);
    }
    expect(sandbox.stats.requests).toBe(0);
  });
});
