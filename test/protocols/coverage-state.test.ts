/**
 * The `coverage` a protocol stream's state keeps (docs/protocols.md#state): only a stream the
 * catalog reads incrementally keeps it. A platform that switches a feed to full refresh still
 * hands its old state back; that coverage vouches for nothing any more (the stream is read for
 * every website) and no STATE carries it again. A coverage time is ISO 8601 text as aivis
 * writes it, or the state is refused naming where. The real `aivis airbyte read` and
 * `tap-aivis` processes against the sandbox over loopback.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import {
  type AirbyteMessage,
  airbyteMessages,
  type SingerMessage,
  singerMessages,
} from '../support/protocol-messages.ts';
import { SANDBOX } from '../e2e/sync-suite.ts';
import { airbyte, configFile, jsonFile, tap } from './protocol-world.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox(SANDBOX);
});
afterEach(async () => {
  await sandbox.close();
});

const READ_AT = '2026-03-03T00:00:00.000Z';

/** A feed's state as an incremental read with `skip_unchanged` left it: coverage of every listed website. */
function savedFeed(baseUrl: string, readStartedAt = READ_AT) {
  const coverage = Object.fromEntries(
    sandbox.truth.websites().map((w) => [
      w.id,
      {
        last_analysis_at: w.last_analysis_at ?? null,
        read_started_at: readStartedAt,
        read_run_id: 'run_earlier',
        changed_at: READ_AT,
        checked_at: null,
      },
    ]),
  );
  return { format_version: 1, base_url: baseUrl, scopes: {}, coverage };
}

const skipping = () => configFile(sandbox, { skip_unchanged: true, sweep_every: '24h', settle_for: '2h' });
const listedIds = () =>
  sandbox.truth
    .websites()
    .map((w) => w.id)
    .sort();
const coverageIds = (streamState: unknown) =>
  Object.keys((streamState as { coverage?: Record<string, unknown> }).coverage ?? {}).sort();

describe('coverage of a stream the catalog now reads full refresh', () => {
  it('aivis airbyte read: no STATE of the full-refresh stream carries the coverage handed back; the incremental one keeps its own', async () => {
    // mentions was incremental when this state was written; the catalog now reads it full_refresh + overwrite.
    const catalog = jsonFile('catalog.json', {
      streams: [
        ['websites', 'full_refresh', 'overwrite'],
        ['mentions', 'full_refresh', 'overwrite'],
        ['citations', 'incremental', 'append_dedup'],
      ].map(([name, sync_mode, destination_sync_mode]) => ({
        stream: { name, json_schema: {}, supported_sync_modes: ['full_refresh'] },
        sync_mode,
        destination_sync_mode,
      })),
    });
    const state = jsonFile(
      'state.json',
      ['mentions', 'citations'].map((name) => ({
        type: 'STREAM',
        stream: { stream_descriptor: { name }, stream_state: savedFeed(sandbox.baseUrl) },
      })),
    );
    const result = await airbyte(sandbox, ['read', '--config', skipping(), '--catalog', catalog, '--state', state]);
    expect(result.code).toBe(0);
    const states = airbyteMessages(result.stdout).flatMap((m: AirbyteMessage) => (m.state ? [m.state.stream] : []));
    const of = (name: string) => states.filter((s) => s.stream_descriptor.name === name).map((s) => s.stream_state);
    expect(of('mentions').length).toBeGreaterThan(0);
    expect(of('mentions').filter((s) => 'coverage' in s)).toEqual([]);
    expect(coverageIds(of('citations').at(-1))).toEqual(listedIds());
  });

  it('tap-aivis: no STATE (the first, after the listing, among them) carries the coverage handed back in the bookmark of a FULL_TABLE stream', async () => {
    const selected = (metadata: Record<string, unknown> = {}) => [
      { breadcrumb: [], metadata: { selected: true, ...metadata } },
    ];
    const catalog = jsonFile('catalog.json', {
      streams: [
        { tap_stream_id: 'websites', metadata: selected() },
        { tap_stream_id: 'mentions', metadata: selected({ 'replication-method': 'FULL_TABLE' }) },
        { tap_stream_id: 'citations', metadata: selected() },
      ],
    });
    const state = jsonFile('state.json', {
      bookmarks: { mentions: savedFeed(sandbox.baseUrl), citations: savedFeed(sandbox.baseUrl) },
    });
    const result = await tap(sandbox, ['--config', skipping(), '--catalog', catalog, '--state', state]);
    expect(result.code).toBe(0);
    const bookmarks = singerMessages(result.stdout).flatMap((m: SingerMessage) =>
      m.type === 'STATE' ? [(m.value as { bookmarks: Record<string, unknown> }).bookmarks] : [],
    );
    expect(bookmarks.length).toBeGreaterThan(0);
    expect(bookmarks.filter((b) => coverageIds(b.mentions).length > 0)).toEqual([]);
    expect(coverageIds(bookmarks.at(-1)!.citations)).toEqual(listedIds());
  });
});

describe('a coverage time that is not ISO 8601', () => {
  it('is refused naming the state file, the stream, the website and the field, before any request', async () => {
    const id = sandbox.truth.websites()[0]!.id;
    const broken = savedFeed(sandbox.baseUrl, 'March 3, 2026');
    const airbyteState = jsonFile('state.json', [
      { type: 'STREAM', stream: { stream_descriptor: { name: 'mentions' }, stream_state: broken } },
    ]);
    const catalog = jsonFile('catalog.json', {
      streams: [
        {
          stream: { name: 'mentions', json_schema: {}, supported_sync_modes: ['full_refresh', 'incremental'] },
          sync_mode: 'incremental',
          destination_sync_mode: 'append_dedup',
        },
      ],
    });
    const read = await airbyte(sandbox, [
      'read',
      '--config',
      skipping(),
      '--catalog',
      catalog,
      '--state',
      airbyteState,
    ]);
    expect([read.code, airbyteMessages(read.stdout)]).toEqual([
      1,
      [
        {
          type: 'TRACE',
          trace: {
            type: 'ERROR',
            emitted_at: expect.any(Number),
            error: {
              message: `state file ${airbyteState}: [0] (stream mentions): coverage.${id}.read_started_at must be an ISO 8601 timestamp`,
              failure_type: 'config_error',
            },
          },
        },
      ],
    ]);

    const singerState = jsonFile('state.json', { bookmarks: { mentions: broken } });
    const synced = await tap(sandbox, ['--config', skipping(), '--state', singerState]);
    expect([synced.code, synced.stdout, synced.stderr]).toEqual([
      2,
      '',
      `tap-aivis: state file ${singerState}: bookmarks.mentions: coverage.${id}.read_started_at must be an ISO 8601 timestamp\n`,
    ]);
    expect(sandbox.stats.requests).toBe(0);
  });
});
