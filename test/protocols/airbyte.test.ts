/**
 * `aivis airbyte spec | check | discover | read` as Airbyte runs it: the real CLI process
 * against the sandbox over loopback, every stdout line validated against the official Airbyte
 * protocol schema, records compared with the sandbox's truth.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { PROTOCOL_STREAMS } from '../../src/protocols/protocol-streams.ts';
import { runCli } from '../support/cli-process.ts';
import { type AirbyteMessage, airbyteMessages, wholeLines } from '../support/protocol-messages.ts';
import { until } from '../support/until.ts';
import { SANDBOX } from '../e2e/sync-suite.ts';
import { airbyte, catalogFile, configFile, finished, jsonFile, latestRows, truthRows } from './protocol-world.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox(SANDBOX);
});
afterEach(async () => {
  await sandbox.close();
});

const records = (messages: readonly AirbyteMessage[]) => messages.flatMap((m) => (m.record ? [m.record] : []));
const statuses = (messages: readonly AirbyteMessage[]) =>
  messages.flatMap((m) =>
    m.trace?.stream_status ? [`${m.trace.stream_status.stream_descriptor.name} ${m.trace.stream_status.status}`] : [],
  );
const errors = (messages: readonly AirbyteMessage[]) =>
  messages.flatMap((m) => (m.trace?.error ? [m.trace.error] : []));
/** The last state of each stream: what the platform hands back as `--state` (a JSON array of them). */
const lastStates = (messages: readonly AirbyteMessage[]) => [
  ...new Map(
    messages.flatMap((m) => (m.state ? [[m.state.stream.stream_descriptor.name, m.state] as const] : [])),
  ).values(),
];
const states = (messages: readonly AirbyteMessage[]) => messages.flatMap((m) => (m.state ? [m.state.stream] : []));
const ALL = PROTOCOL_STREAMS.map((s) => s.name);

describe('spec, discover, check', () => {
  it('print one valid message each; check says FAILED (exit 0) for a refused key and an unreachable API', async () => {
    const spec = await airbyte(sandbox, ['spec']);
    expect(spec.code).toBe(0);
    const [specMessage] = airbyteMessages(spec.stdout);
    const connection = specMessage!.spec!.connectionSpecification as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(connection.required).toEqual(['base_url', 'api_key']);
    expect(connection.properties.api_key!.airbyte_secret).toBe(true);
    expect(connection.properties.requests_per_minute!.default).toBe(90);
    expect(Object.keys(connection.properties)).toEqual([
      'base_url',
      'api_key',
      'requests_per_minute',
      'skip_unchanged',
      'sweep_every',
      'settle_for',
      'websites',
      'streams',
      'allow_mass_removal',
      'schema_evolution',
    ]);
    expect(connection.properties.schema_evolution).toMatchObject({ enum: ['evolve', 'freeze'], default: 'evolve' });

    const discover = await airbyte(sandbox, ['discover', '--config', configFile(sandbox)]);
    expect(discover.code).toBe(0);
    const streams = airbyteMessages(discover.stdout)[0]!.catalog!.streams as {
      name: string;
      supported_sync_modes: string[];
      source_defined_primary_key: string[][];
    }[];
    expect(streams.map((s) => s.name)).toEqual(ALL);
    expect(streams.find((s) => s.name === 'mentions')!.supported_sync_modes).toEqual(['full_refresh', 'incremental']);
    expect(streams.find((s) => s.name === 'websites')!.supported_sync_modes).toEqual(['full_refresh']);
    expect(streams.find((s) => s.name === 'analytics_providers')!.source_defined_primary_key).toEqual([
      ['website_id'],
      ['analysis_id'],
      ['provider'],
    ]);

    const ok = await airbyte(sandbox, ['check', '--config', configFile(sandbox)]);
    expect([ok.code, airbyteMessages(ok.stdout)]).toEqual([
      0,
      [
        {
          type: 'CONNECTION_STATUS',
          connectionStatus: {
            status: 'SUCCEEDED',
            message: `API ${sandbox.baseUrl}: key accepted, V2 enabled, read scope granted (websites visible)`,
          },
        },
      ],
    ]);
    const refusedKey = 'sk_test_refused_0123456789abcdef';
    const refused = await airbyte(sandbox, ['check', '--config', configFile(sandbox, { api_key: refusedKey })]);
    expect(refused.code).toBe(0);
    const [status] = airbyteMessages(refused.stdout);
    expect(status!.connectionStatus!.status).toBe('FAILED');
    expect(status!.connectionStatus!.message).toMatch(new RegExp(`^API ${sandbox.baseUrl}: .*401`));
    expect(refused.stdout + refused.stderr).not.toContain(refusedKey);
    const unreachable = await airbyte(sandbox, [
      'check',
      '--config',
      jsonFile('config.json', { base_url: 'http://127.0.0.1:9', api_key: sandbox.apiKey }),
    ]);
    expect(unreachable.code).toBe(0);
    expect(airbyteMessages(unreachable.stdout)[0]!.connectionStatus).toEqual({
      status: 'FAILED',
      message: expect.stringMatching(/^API http:\/\/127\.0\.0\.1:9: /),
    });
  });
});

describe('read', () => {
  it('emits the truth of every stream, STATE after the records it covers; a read from that state reads only new and boundary rows', async () => {
    const config = configFile(sandbox);
    const first = await airbyte(sandbox, ['read', '--config', config, '--catalog', catalogFile()]);
    expect(first.code).toBe(0);
    const messages = airbyteMessages(first.stdout);
    expect(latestRows(records(messages))).toEqual(truthRows(sandbox));
    expect(errors(messages)).toEqual([]);
    // STARTED first, RUNNING before a stream's first record, COMPLETE last.
    expect(statuses(messages).slice(0, ALL.length)).toEqual(ALL.map((s) => `${s} STARTED`));
    expect(statuses(messages).slice(-ALL.length)).toEqual(ALL.map((s) => `${s} COMPLETE`));
    for (const name of ALL) {
      const at = messages.findIndex((m) => m.record?.stream === name);
      const running = messages.findIndex(
        (m) => m.trace?.stream_status?.status === 'RUNNING' && m.trace.stream_status.stream_descriptor.name === name,
      );
      expect(running).toBeGreaterThan(-1);
      expect(running).toBeLessThan(at);
    }
    // Per-stream state of the feeds and the listing, versioned and bound to the API it came from.
    const saved = lastStates(messages);
    expect(saved.map((m) => m.stream.stream_descriptor.name).sort()).toEqual([
      'analytics_history',
      'citations',
      'mentions',
      'websites',
    ]);
    for (const m of saved)
      expect(m.stream.stream_state).toMatchObject({ format_version: 1, base_url: sandbox.baseUrl });
    const websites = sandbox.truth
      .websites()
      .map((w) => w.id)
      .sort();
    expect(
      Object.keys(
        saved.find((m) => m.stream.stream_descriptor.name === 'websites')!.stream.stream_state.known_websites as object,
      ).sort(),
    ).toEqual(websites);
    // Every record precedes the last STATE of its stream: nothing is covered by a state before it is emitted.
    for (const m of saved) {
      const name = m.stream.stream_descriptor.name;
      const lastRecord = messages.findLastIndex((x) => x.record?.stream === name);
      expect(messages.findLastIndex((x) => x.state === m)).toBeGreaterThan(lastRecord);
    }
    // At the flush cadence, not one STATE per page.
    expect(states(messages).length).toBeLessThan(20);

    sandbox.clock.advance({ days: 2 });
    const second = await airbyte(sandbox, [
      'read',
      '--config',
      config,
      '--catalog',
      catalogFile(),
      '--state',
      jsonFile('state.json', saved),
    ]);
    expect(second.code).toBe(0);
    const again = airbyteMessages(second.stdout);
    const truth = truthRows(sandbox);
    const union = latestRows([...records(messages), ...records(again)]);
    const latest = latestRows(records(again));
    // A breakdown stream is the latest analysis's (the earlier one's rows stay, a history with gaps).
    for (const name of ALL)
      expect([
        name,
        (name.startsWith('analytics_') && name !== 'analytics_history' ? latest : union).get(name),
      ]).toEqual([name, truth.get(name)]);
    const before = records(messages).filter((r) => r.stream === 'mentions').length;
    const after = new Set(sandbox.truth.websites().flatMap((w) => [...sandbox.truth.mentions(w.id)].map((m) => m.id)))
      .size;
    const read = records(again).filter((r) => r.stream === 'mentions').length;
    // Every new mention, old ones only at the inclusive boundary, never the whole feed again.
    expect(read).toBeGreaterThanOrEqual(after - before);
    expect(read).toBeLessThan(before);
  });

  it('honours the configured catalog: only selected streams; full_refresh re-reads from the start whatever --state holds', async () => {
    const config = configFile(sandbox);
    const first = airbyteMessages(
      (await airbyte(sandbox, ['read', '--config', config, '--catalog', catalogFile(['mentions', 'analytics_latest'])]))
        .stdout,
    );
    expect([...new Set(records(first).map((r) => r.stream))].sort()).toEqual(['analytics_latest', 'mentions']);
    expect(statuses(first).filter((s) => s.endsWith('STARTED'))).toEqual([
      'mentions STARTED',
      'analytics_latest STARTED',
    ]);
    const state = jsonFile('state.json', lastStates(first));
    const mentions = records(first).filter((r) => r.stream === 'mentions').length;
    const full = await airbyte(sandbox, [
      'read',
      '--config',
      config,
      '--catalog',
      catalogFile(['mentions'], 'full_refresh'),
      '--state',
      state,
    ]);
    expect(records(airbyteMessages(full.stdout)).length).toBe(mentions);
    const incremental = await airbyte(sandbox, [
      'read',
      '--config',
      config,
      '--catalog',
      catalogFile(['mentions']),
      '--state',
      state,
    ]);
    expect(records(airbyteMessages(incremental.stdout)).length).toBeLessThan(mentions);
  });

  it('killed after its first STATE and resumed from the last STATE it printed, loses nothing', async () => {
    await sandbox.close();
    sandbox = await startSandbox({ ...SANDBOX, mentionsPerAnalysis: 1500, citationsPerAnalysis: 300 });
    const config = configFile(sandbox);
    const catalog = catalogFile();
    const { child, done } = runCli(['airbyte', 'read', '--config', config, '--catalog', catalog], {});
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    // After the first feed STATE (the listing's comes first), mid-scan.
    await until(() => /"type":"STATE".*"cursor":"/.test(out), 'a STATE with a mid-scan cursor');
    child.kill('SIGKILL');
    const killed = await finished(sandbox, done);
    expect(killed.signal).toBe('SIGKILL');
    const before = airbyteMessages(wholeLines(killed.stdout));
    expect(statuses(before)).not.toContain('mentions COMPLETE');
    const resumed = await airbyte(sandbox, [
      'read',
      '--config',
      config,
      '--catalog',
      catalog,
      '--state',
      jsonFile('state.json', lastStates(before)),
    ]);
    expect(resumed.code).toBe(0);
    const after = airbyteMessages(resumed.stdout);
    // Only what a STATE covered counts from the killed read: a stream's records before its last STATE.
    const lastState = (name: string) => before.findLastIndex((m) => m.state?.stream.stream_descriptor.name === name);
    const covered = before.filter((m, at) => m.record !== undefined && at < lastState(m.record.stream));
    expect(covered.length).toBeGreaterThan(0);
    expect(latestRows([...records(covered), ...records(after)])).toEqual(truthRows(sandbox));
  });

  it('a server breaking the contract fails that stream with system_error (exit 1) while other websites and streams go on', async () => {
    const id = sandbox.truth.websites().find((w) => w.last_analysis_at !== null)!.id;
    sandbox.faults.set({ kind: 'bound_future', routes: ['mentions'], websites: [id] });
    const result = await airbyte(sandbox, ['read', '--config', configFile(sandbox), '--catalog', catalogFile()]);
    expect(result.code).toBe(1);
    const messages = airbyteMessages(result.stdout);
    expect(errors(messages)).toEqual([
      {
        message: expect.stringMatching(
          new RegExp(`^website ${id}: .*scan_upper_bound 2099-01-01T00:00:00Z, later than this machine's clock`),
        ),
        failure_type: 'system_error',
        stream_descriptor: { name: 'mentions' },
      },
    ]);
    expect(statuses(messages).slice(-ALL.length)).toEqual(
      ALL.map((s) => `${s} ${s === 'mentions' ? 'INCOMPLETE' : 'COMPLETE'}`),
    );
    // The other websites' mentions, and their state, were emitted.
    const truth = truthRows(sandbox);
    const others = truth.get('mentions')!.filter((r) => r.website_id !== id);
    expect(latestRows(records(messages)).get('mentions')).toEqual(others);
    const mentionScopes = Object.keys(
      lastStates(messages).find((m) => m.stream.stream_descriptor.name === 'mentions')!.stream.stream_state
        .scopes as object,
    );
    expect(mentionScopes.filter((scope) => scope !== id).length).toBe(sandbox.truth.websites().length - 1);
    expect(latestRows(records(messages)).get('citations')).toEqual(truth.get('citations'));
  });

  it('a website leaving the listing is emitted again with _removed_at; a mass removal is refused (config_error) unless allow_mass_removal', async () => {
    const catalog = catalogFile(['websites']);
    const first = airbyteMessages(
      (await airbyte(sandbox, ['read', '--config', configFile(sandbox), '--catalog', catalog])).stdout,
    );
    const state = jsonFile('state.json', lastStates(first));
    const [gone, ...rest] = sandbox.truth.websites().map((w) => w.id);
    sandbox.removeWebsite(gone!);
    const second = airbyteMessages(
      (await airbyte(sandbox, ['read', '--config', configFile(sandbox), '--catalog', catalog, '--state', state]))
        .stdout,
    );
    const removal = records(second).filter((r) => r.data._removed_at !== null);
    expect(removal).toEqual([
      {
        stream: 'websites',
        emitted_at: expect.any(Number),
        data: expect.objectContaining({ id: gone, _removed_at: expect.any(String), domain_url: null }),
      },
    ]);
    const known = lastStates(second)[0]!.stream.stream_state.known_websites as Record<string, string>;
    expect(Object.keys(known).sort()).toEqual([...rest].sort());
    // First sightings survive a read: the platform's latest row keeps them.
    const firstSeen = lastStates(first)[0]!.stream.stream_state.known_websites as Record<string, string>;
    for (const id of rest) expect(known[id]).toBe(firstSeen[id]);

    const afterRemoval = jsonFile('state.json', lastStates(second));
    for (const id of rest.slice(0, 3)) sandbox.removeWebsite(id);
    const refused = await airbyte(sandbox, [
      'read',
      '--config',
      configFile(sandbox),
      '--catalog',
      catalog,
      '--state',
      afterRemoval,
    ]);
    expect(refused.code).toBe(1);
    const refusedMessages = airbyteMessages(refused.stdout);
    expect(records(refusedMessages)).toEqual([]);
    expect(errors(refusedMessages)).toEqual([
      {
        message: expect.stringMatching(
          /^the website listing would mark 3 of 4 known websites as removed \(more than half of them\); nothing was written\..*allow_mass_removal: true/,
        ),
        failure_type: 'config_error',
      },
    ]);
    const allowed = await airbyte(sandbox, [
      'read',
      '--config',
      configFile(sandbox, { allow_mass_removal: true }),
      '--catalog',
      catalog,
      '--state',
      afterRemoval,
    ]);
    expect(allowed.code).toBe(0);
    expect(
      records(airbyteMessages(allowed.stdout))
        .filter((r) => r.data._removed_at !== null)
        .map((r) => r.data.id)
        .sort(),
    ).toEqual(rest.slice(0, 3).sort());
  });

  it('a key the API refuses during read is a config_error, exit 1, the key never printed', async () => {
    const key = 'sk_test_refused_0123456789abcdef';
    const result = await airbyte(sandbox, [
      'read',
      '--config',
      configFile(sandbox, { api_key: key }),
      '--catalog',
      catalogFile(),
    ]);
    expect(result.code).toBe(1);
    const messages = airbyteMessages(result.stdout);
    expect(errors(messages)).toEqual([{ message: expect.stringMatching(/401/), failure_type: 'config_error' }]);
    expect(statuses(messages).slice(-ALL.length)).toEqual(ALL.map((s) => `${s} INCOMPLETE`));
    expect(result.stdout + result.stderr).not.toContain(key);
  });
});

describe('bad input', () => {
  const configError = (message: string) => [
    {
      type: 'TRACE',
      trace: { type: 'ERROR', emitted_at: expect.any(Number), error: { message, failure_type: 'config_error' } },
    },
  ];

  it('a missing or malformed config, catalog or state is an error TRACE with config_error, exit 1, nothing else on stdout', async () => {
    const config = configFile(sandbox);
    const catalog = catalogFile();
    const cases: [string[], string][] = [
      [['discover', '--config', '/nonexistent/config.json'], 'config file /nonexistent/config.json: not found'],
      [['read', '--catalog', catalog], 'no config file given: pass --config FILE'],
    ];
    const notJson = jsonFile('config.json', '{"base_url": ');
    cases.push([
      ['discover', '--config', notJson],
      `config file ${notJson}: not valid JSON (Unexpected end of JSON input)`,
    ]);
    const badRate = jsonFile('config.json', {
      base_url: sandbox.baseUrl,
      api_key: sandbox.apiKey,
      requests_per_minute: 'fast',
    });
    cases.push([
      ['discover', '--config', badRate],
      `config file ${badRate}: requests_per_minute: Invalid input: expected number, received string`,
    ]);
    const badCatalog = jsonFile('catalog.json', {
      streams: [{ stream: { name: 'prompts' }, sync_mode: 'full_refresh', destination_sync_mode: 'append' }],
    });
    cases.push([
      ['read', '--config', config, '--catalog', badCatalog],
      `catalog file ${badCatalog}: streams[0]: stream "prompts" is not an aivis stream (${ALL.join(', ')})`,
    ]);
    const incrementalSnapshot = catalogFile(['analytics_latest'], 'incremental');
    cases.push([
      ['read', '--config', config, '--catalog', incrementalSnapshot],
      `catalog file ${incrementalSnapshot}: streams[0]: stream analytics_latest is read whole every time; its sync_mode must be full_refresh`,
    ]);
    const notState = jsonFile('state.json', '"mentions"');
    cases.push([
      ['read', '--config', config, '--catalog', catalog, '--state', notState],
      `state file ${notState}: must be a JSON array of state messages, as aivis airbyte read prints them`,
    ]);
    // A legacy state blob is read (docs/protocols.md#state); one aivis never wrote is refused as any other.
    const legacy = jsonFile('state.json', { mentions: {} });
    cases.push([
      ['read', '--config', config, '--catalog', catalog, '--state', legacy],
      `state file ${legacy}: mentions (stream mentions): written in state-format version null; this aivis reads version 1. Start from an empty state (a full re-read) to replace it`,
    ]);
    const stream = (stream_state: unknown) => [
      { type: 'STREAM', stream: { stream_descriptor: { name: 'mentions' }, stream_state } },
    ];
    const otherVersion = jsonFile('state.json', stream({ format_version: 2, base_url: sandbox.baseUrl, scopes: {} }));
    cases.push([
      ['read', '--config', config, '--catalog', catalog, '--state', otherVersion],
      `state file ${otherVersion}: [0] (stream mentions): written in state-format version 2; this aivis reads version 1. Start from an empty state (a full re-read) to replace it`,
    ]);
    const otherApi = jsonFile(
      'state.json',
      stream({ format_version: 1, base_url: 'https://api.example.com', scopes: {} }),
    );
    cases.push([
      ['read', '--config', config, '--catalog', catalog, '--state', otherApi],
      `state file ${otherApi}: [0] (stream mentions): written for base_url "https://api.example.com", not ${sandbox.baseUrl}: a state of another API is not resumed from. Start from an empty state to read this one from the beginning`,
    ]);
    for (const [args, message] of cases) {
      const result = await airbyte(sandbox, args);
      expect([args, result.code, airbyteMessages(result.stdout)]).toEqual([args, 1, configError(message)]);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    // Refused before any request.
    expect(sandbox.stats.requests).toBe(0);
  });

  it('check with a missing or malformed config answers CONNECTION_STATUS FAILED naming it, exit 0, as docs/protocols.md says', async () => {
    const notJson = jsonFile('config.json', '{"base_url": ');
    const cases: [string[], string][] = [
      [['check', '--config', '/nonexistent/config.json'], 'config file /nonexistent/config.json: not found'],
      [['check', '--config', notJson], `config file ${notJson}: not valid JSON (Unexpected end of JSON input)`],
    ];
    for (const [args, message] of cases) {
      const result = await airbyte(sandbox, args);
      expect([args, result.code, airbyteMessages(result.stdout)]).toEqual([
        args,
        0,
        [{ type: 'CONNECTION_STATUS', connectionStatus: { status: 'FAILED', message } }],
      ]);
    }
    const doc = readFileSync('docs/protocols.md', 'utf8');
    expect(doc).toContain('| `check` with a missing or malformed config, a key the API refuses');
  });
});
