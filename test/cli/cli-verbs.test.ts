/**
 * The CLI verbs as a user runs them: the real `aivis` process against the sandbox over
 * loopback and a DuckDB file, checking stdout, stderr and exit codes.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { queryDuckDbFile } from '../support/duckdb-file.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { microsecondTimestamp } from '../../src/destination/timestamp-micros.ts';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { failureLine, jsonLines } from '../support/json-lines.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-cli-'));
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({
    seed: 11,
    websites: 3,
    requestsPerMinute: 0,
    mentionsPerAnalysis: 40,
    citationsPerAnalysis: 10,
  });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function aivis(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
  const child = spawn(process.execPath, ['--import', './test/setup/loopback-guard.ts', 'src/cli/main.ts', ...args], {
    env: { ...process.env, AIVIS_TEST_KEY: sandbox.apiKey, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

let configs = 0;
/** A config file for the sandbox and a fresh DuckDB file; `extra` lines are appended. */
function config(extra: string[] = [], keyVariable = 'AIVIS_TEST_KEY'): { path: string; database: string } {
  const name = `c${++configs}`;
  const database = path.join(dir, `${name}.duckdb`);
  const file = path.join(dir, `${name}.yaml`);
  const lines = [
    'source:',
    `  base_url: ${sandbox.baseUrl}`,
    `  api_key: \${${keyVariable}}`,
    '  requests_per_minute: 100',
    '  max_retries: 1',
  ];
  lines.push('destination:', '  type: duckdb', `  path: ${database}`, '  schema: aivis', ...extra, '');
  writeFileSync(file, lines.join('\n'));
  return { path: file, database };
}

const query = queryDuckDbFile;

describe('aivis check', () => {
  it('proves the config, the key and the destination, and exits 0', async () => {
    const { path: file, database } = config();
    const result = await aivis(['check', '--config', file]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean)).toEqual([
      `ok   config ${file}`,
      `ok   API ${sandbox.baseUrl}: key accepted, V2 enabled, read scope granted (websites visible)`,
      `ok   API ${sandbox.baseUrl}: the served contract says what the bundled contract says`,
      `ok   destination duckdb (file ${database}): reachable, can create and write tables`,
    ]);
  });

  it('says what to fix for a key without read scope, and exits 1 without printing the key', async () => {
    const { path: file } = config();
    const result = await aivis(['check', '--config', file], { AIVIS_TEST_KEY: sandbox.keys.noReadScope });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /FAIL API http:\/\/127\.0\.0\.1:\d+: access forbidden \(403 forbidden, request_id [\w.-]+\): the API says "This API key lacks the read scope; use a key with read scope\.": V2 may not be enabled for this workspace, or the key may lack read scope; ask a workspace owner/,
    );
    expect(result.stdout + result.stderr).not.toContain(sandbox.keys.noReadScope);
  });

  it('reports a workspace without V2 the same way', async () => {
    const { path: file } = config();
    const result = await aivis(['check', '--config', file], { AIVIS_TEST_KEY: sandbox.keys.v2Disabled });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('access forbidden (403 forbidden');
  });
});

describe('aivis streams', () => {
  it('prints every stream with its tables and DDL for the configured destination', async () => {
    const { path: file } = config();
    const result = await aivis(['streams', '--config', file]);
    expect(result.code).toBe(0);
    for (const table of [
      'websites',
      'analytics_latest',
      'analytics_providers',
      'analytics_competitors',
      'analytics_history',
      'mentions',
      'citations',
      '_aivis_state',
      '_aivis_runs',
      '_aivis_rejected',
    ]) {
      // DuckDB names tables catalog.schema.table; the catalog is the database file's name.
      expect(result.stdout).toMatch(new RegExp(`CREATE TABLE IF NOT EXISTS "c\\d+"\\."aivis"\\."${table}"`));
    }
    expect(result.stdout).toContain('-- stream mentions (enabled): mentions');
    expect(result.stdout).toContain(
      '-- views for analysts (created by sync): websites_current, analytics_current, analytics_providers_current, analytics_competitors_current',
    );
    for (const view of [
      'websites_current',
      'analytics_current',
      'analytics_providers_current',
      'analytics_competitors_current',
    ])
      expect(result.stdout).toMatch(new RegExp(`CREATE OR REPLACE VIEW "c\\d+"\\."aivis"\\."${view}" AS`));
    expect(result.stdout).toMatch(
      /COMMENT ON COLUMN "c\d+"\."aivis"\."analytics_latest"\."visibility" IS 'Visibility, 0 to 100/,
    );
  });
});

describe('aivis sync, state and backfill', () => {
  it('logs JSON lines on stderr, prints the summary, and saves state that state show lists and state reset clears', async () => {
    const { path: file, database } = config();
    const sync = await aivis(['sync', '--config', file]);
    expect(sync.code).toBe(0);
    const logs = jsonLines(sync.stderr);
    expect(logs.map((l) => l.msg)).toContain('run started');
    expect(logs.at(-1)).toMatchObject({ level: 'info', msg: 'run finished', status: 'succeeded', rejected: 0 });
    expect(sync.stdout).toMatch(
      /^aivis sync run_\w+: succeeded in \d+\.\ds\n {2}websites {2}3\/3 synced, 0 failed, 0 marked removed\n/,
    );
    expect(sync.stdout).toContain('\n  read 3 websites, skipped 0 unchanged\n');
    expect(sync.stdout + sync.stderr).not.toContain(sandbox.apiKey);

    const shown = jsonLines((await aivis(['state', 'show', '--config', file])).stdout);
    expect(shown).toHaveLength(9);
    for (const entry of shown)
      expect(entry).toMatchObject({ cursor: null, pending_upper_bound: null, frontier: expect.stringMatching(/Z$/) });

    const [website] = sandbox.truth.websites() as { id: string }[];
    const reset = await aivis(['state', 'reset', '--config', file, '--stream', 'mentions', '--website', website!.id]);
    expect(reset.stdout).toBe('deleted 1 state entry; the next sync reads those feeds from the beginning\n');
    const after = jsonLines((await aivis(['state', 'show', '--config', file, '--stream', 'mentions'])).stdout);
    expect(after.map((e) => e.scope)).not.toContain(website!.id);
    expect(after).toHaveLength(2);
    expect(await query(database, 'SELECT count(*)::INT AS n FROM aivis._aivis_runs')).toEqual([{ n: 1 }]);
  });

  it('backfill re-reads a window and leaves every saved frontier where it was', async () => {
    const { path: file, database } = config();
    expect((await aivis(['sync', '--config', file])).code).toBe(0);
    const before = (await aivis(['state', 'show', '--config', file])).stdout;
    const backfill = await aivis([
      'backfill',
      '--config',
      file,
      '--stream',
      'mentions',
      '--since',
      '2020-01-01T00:00:00Z',
    ]);
    expect(backfill.code).toBe(0);
    const truthMentions = (sandbox.truth.websites() as { id: string }[]).reduce(
      (n, w) => n + [...sandbox.truth.mentions(w.id)].length,
      0,
    );
    expect(backfill.stdout).toMatch(new RegExp(`\\n {2}mentions +${truthMentions} +0\\n`));
    expect((await aivis(['state', 'show', '--config', file])).stdout).toBe(before);
    expect(await query(database, 'SELECT count(*)::INT AS n FROM aivis.mentions')).toEqual([{ n: truthMentions }]);
  });

  it('an id that is not listed (verify, backfill) or has no state (state reset) is a usage error naming it, and changes nothing', async () => {
    const { path: file, database } = config();
    expect((await aivis(['sync', '--config', file])).code).toBe(0);
    const before = (await aivis(['state', 'show', '--config', file])).stdout;
    const unlisted =
      '--websites names web_nope, not listed by the API for workspace default: check the id (aivis state show lists the synced ones)';
    const since = ['--since', '2020-01-01T00:00:00Z'];
    for (const args of [
      ['verify', '--streams', 'mentions', ...since, '--websites', 'web_nope'],
      ['backfill', '--streams', 'mentions', ...since, '--websites', 'web_nope'],
    ]) {
      const result = await aivis([...args, '--config', file]);
      expect({ args, code: result.code, last: jsonLines(result.stderr).at(-1) }).toEqual({
        args,
        code: 2,
        last: failureLine(unlisted, 2),
      });
    }
    const [website] = sandbox.truth.websites() as { id: string }[];
    const reset = await aivis(['state', 'reset', '--config', file, '--website', `${website!.id},web_nope`]);
    expect(reset.code).toBe(2);
    expect(jsonLines(reset.stderr)).toEqual([
      failureLine(
        '--websites names web_nope with no saved state: nothing was reset; aivis state show lists what there is',
        2,
      ),
    ]);
    expect((await aivis(['state', 'show', '--config', file])).stdout).toBe(before);
    expect(
      await query(database, "SELECT count(*)::INT AS n FROM aivis._aivis_runs WHERE command = 'backfill'"),
    ).toEqual([{ n: 1 }]);
  });

  it('state.store: file keeps state in the file, not in the destination', async () => {
    const statePath = path.join(dir, 'file-state.json');
    const { path: file, database } = config(['state:', '  store: file', `  path: ${statePath}`]);
    expect((await aivis(['sync', '--config', file])).code).toBe(0);
    expect(existsSync(statePath)).toBe(true);
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as { version: number; entries: unknown[] };
    expect(saved.version).toBe(1);
    expect(saved.entries).toHaveLength(9);
    expect(await query(database, 'SELECT count(*)::INT AS n FROM aivis._aivis_state')).toEqual([{ n: 0 }]);
    expect(jsonLines((await aivis(['state', 'show', '--config', file])).stdout)).toHaveLength(9);
  });

  it('an unusable state.path (under /proc, a folder, a device) is exit 2 at once, nothing synced', async () => {
    for (const [statePath, why] of [
      ['/proc/self/aivis/state.json', 'its folder /proc/self/aivis cannot be created (ENOENT)'],
      ['/proc/kmsg', 'its folder /proc does not take new files (ENOENT)'],
      [dir, 'it is not a regular file (a folder, a device or a FIFO)'],
      ['/dev/zero', 'it is not a regular file (a folder, a device or a FIFO)'],
    ] as const) {
      const { path: file } = config(['state:', '  store: file', `  path: ${statePath}`]);
      const before = sandbox.stats.requests;
      const result = await aivis(['sync', '--config', file]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`state.path ${statePath} cannot hold aivis state: ${why}`);
      expect(sandbox.stats.requests).toBe(before);
    }
  });
});

describe('aivis verify', () => {
  it('prints the estimate, then lists the mentions deleted by hand (exit 3); --repair restores them without moving state (exit 0 after)', async () => {
    const { path: file, database } = config();
    expect((await aivis(['sync', '--config', file])).code).toBe(0);
    const [first] = await query(
      database,
      'SELECT id, website_id FROM aivis.mentions ORDER BY available_at, id LIMIT 1',
    );
    const deleted = (
      await query(
        database,
        `SELECT id FROM aivis.mentions WHERE website_id = '${first!.website_id}' ORDER BY available_at, id LIMIT 2`,
      )
    ).map((r) => String(r.id));
    await query(database, `DELETE FROM aivis.mentions WHERE id IN ('${deleted.join("', '")}')`);
    const state = (await aivis(['state', 'show', '--config', file])).stdout;
    const frontiers = new Map(
      jsonLines(state)
        .filter((e) => e.stream === 'mentions')
        .map((e) => [String(e.scope), microsecondTimestamp(String(e.frontier))]),
    );
    const since = '2020-01-01T00:00:00Z';
    const websites = [...frontiers.keys()].sort();
    const inWindow = (id: string) =>
      [...sandbox.truth.mentions(id)].filter((m) => microsecondTimestamp(String(m.available_at)) <= frontiers.get(id)!)
        .length;
    const line = (id: string, repair: boolean) => {
      const missing = id === first!.website_id ? deleted.length : 0;
      const counts = `api ${inWindow(id)}, destination ${inWindow(id) - missing}, missing ${missing}, extra 0`;
      return `  ${id} 2020-01-01T00:00:00.000000Z .. ${frontiers.get(id)}: ${counts}${repair ? `, repaired ${missing}` : ''}`;
    };
    const report = (repair: boolean) => [
      'aivis verify mentions: differences found',
      ...websites.flatMap((id) => [
        line(id, repair),
        ...(id === first!.website_id ? [`    missing: ${deleted.join(' ')}`] : []),
      ]),
      `  total: 3 websites verified, 2 missing, 0 extra${repair ? ', 2 repaired' : ''}`,
      '',
    ];

    const found = await aivis(['verify', '--config', file, '--stream', 'mentions', '--since', since]);
    expect(found.code).toBe(3);
    expect(found.stdout.split('\n')).toEqual(report(false));
    const [estimate] = jsonLines(found.stderr);
    expect(estimate).toMatchObject({
      level: 'info',
      msg: 'verify mentions: about 4 requests (1 listing page, 3 feed pages for 3 websites), 1 minute at 100 requests per minute',
      requests: 4,
    });

    const repaired = await aivis(['verify', '--config', file, '--stream', 'mentions', '--since', since, '--repair']);
    expect(repaired.code).toBe(3);
    expect(repaired.stdout.split('\n')).toEqual(report(true));
    expect((await aivis(['state', 'show', '--config', file])).stdout).toBe(state);

    const equal = await aivis(['verify', '--config', file, '--stream', 'mentions', '--since', since, '--json']);
    expect(equal.code).toBe(0);
    expect(JSON.parse(equal.stdout)).toMatchObject({
      stream: 'mentions',
      equal: true,
      missing: 0,
      extra: 0,
      skipped: [],
    });
    // Two feeds: one JSON object per stream, each on its own line, in the order named.
    const both = await aivis([
      'verify',
      '--config',
      file,
      '--streams',
      'citations,mentions',
      '--since',
      since,
      '--json',
    ]);
    expect(both.code).toBe(0);
    expect(both.stdout.endsWith('\n')).toBe(true);
    const lines = both.stdout.trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { stream: string; equal: boolean }).stream)).toEqual([
      'citations',
      'mentions',
    ]);
  });
});

describe('aivis status', () => {
  it('reads the destination only: 0 when fresh, 4 past --max-staleness, one JSON object with --json', async () => {
    const { path: file } = config();
    expect((await aivis(['status', '--config', file, '--json'])).code).toBe(4); // nothing synced yet
    const sync = await aivis(['sync', '--config', file]);
    expect(sync.code).toBe(0);
    const runId = /^aivis sync (run_\w+):/.exec(sync.stdout)![1];
    const requests = sandbox.stats.requests;

    const json = await aivis(['status', '--config', file, '--json', '--max-staleness', '36500d']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(Object.keys(report)).toEqual(['last_run', 'rejected_since_last_success', 'streams', 'stale']);
    expect(Object.keys(report.last_run)).toEqual([
      'id',
      'command',
      'status',
      'started_at',
      'finished_at',
      'counts',
      'error',
    ]);
    expect([report.last_run.id, report.last_run.status, report.rejected_since_last_success, report.stale]).toEqual([
      runId,
      'succeeded',
      0,
      false,
    ]);
    expect(report.streams.map((s: { stream: string }) => s.stream)).toEqual([
      'websites',
      'analytics',
      'analytics_history',
      'mentions',
      'citations',
    ]);
    for (const stream of report.streams)
      expect(Object.keys(stream)).toEqual([
        'stream',
        'complete_through',
        'age_seconds',
        'stale',
        'websites',
        'websites_complete',
        'checked_through',
      ]);

    // The feeds are complete through the sandbox's data time (2026-01-01), long before this machine's now
    // (whole days and hours; no hours within the first hour of a UTC day).
    const stale = await aivis(['status', '--config', file, '--max-staleness', '1h']);
    expect(stale.code).toBe(4);
    expect(stale.stdout).toMatch(/^aivis status: STALE\n {2}last run {2}run_\w+ \(sync\) succeeded, started /);
    expect(stale.stdout).toMatch(
      /\n {2}STALE: mentions is complete through 2026-01-\d\dT[\d:.]+Z, \d+d( \d+h)? ago: older than --max-staleness 1h/,
    );
    expect((await aivis(['status', '--config', file])).code).toBe(0);
    expect(sandbox.stats.requests).toBe(requests);
  });
});

describe('usage errors exit 2 with a message naming the problem', () => {
  it.each([
    [
      ['sync', '--streams', 'mentions,bogus'],
      'unknown stream "bogus" in --streams (streams: websites, analytics, analytics_history, mentions, citations)',
    ],
    [['sync', '--websites', 'site1'], '"site1" in --websites is not a website id (they look like web_123)'],
    [
      ['backfill', '--stream', 'mentions', '--since', 'yesterday'],
      '--since "yesterday" is not a UTC timestamp such as 2026-01-31T00:00:00Z',
    ],
    [['backfill'], "Missing required arguments: streams, since\nRun 'aivis --help' for usage."],
    [
      ['backfill', '--stream', 'websites', '--since', '2026-01-01T00:00:00Z'],
      'backfill re-reads feeds: name analytics, analytics_history, mentions or citations (every sync reads the websites listing whole)',
    ],
    [
      ['sync', '--full-refrsh'],
      "unknown flag --full-refrsh: did you mean --full-refresh?\nRun 'aivis --help' for usage.",
    ],
    [['sync', '--websits', 'web_1'], "unknown flag --websits: did you mean --websites?\nRun 'aivis --help' for usage."],
    [['synk'], 'unknown command "synk": did you mean sync?\nRun \'aivis --help\' for usage.'],
    // One dash: yargs reads -c -o -n -f -i -g; the user reads one word, and gets one line.
    [['sync', '-config', 'x.yaml'], "unknown flag -config: did you mean --config?\nRun 'aivis --help' for usage."],
    [['-config=x.yaml', 'sync'], "unknown flag -config: did you mean --config?\nRun 'aivis --help' for usage."],
    [
      ['frobnicate'],
      'unknown command "frobnicate" (commands: check, streams, sync, backfill, verify, state, status, sandbox, import-prompts, dbt-sources, query, airbyte)\nRun \'aivis --help\' for usage.',
    ],
    [['state', 'sho'], '"sho" is not one of show, reset: did you mean show?\nRun \'aivis --help\' for usage.'],
    [
      ['import-prompts', '--website', 'web_1', '--file', 'x.csv', '--classification', 'provided-only'],
      '--classification "provided-only" is not one of auto, provided_only: did you mean provided_only?\nRun \'aivis --help\' for usage.',
    ],
    [
      ['sync', '--streams', 'mentons'],
      'unknown stream "mentons" in --streams: did you mean mentions? (streams: websites, analytics, analytics_history, mentions, citations)',
    ],
    [
      ['sync', '--streams', ''],
      '--streams is empty: name at least one stream (websites, analytics, analytics_history, mentions, citations), or leave the flag out',
    ],
    [
      ['sync', '--websites', ' , '],
      '--websites is empty: name at least one website id (they look like web_123), or leave the flag out',
    ],
    [
      ['sync', '--streams', 'mentions', '--streams', 'citations'],
      '--streams is given 2 times: give it once, with a comma-separated list',
    ],
    [
      ['sync', '--full-refresh=maybe'],
      '--full-refresh is a switch and takes no value (got "maybe"): write --full-refresh or --no-full-refresh',
    ],
    [
      ['sync', '--allow-mass-removal=TRUE'],
      '--allow-mass-removal is a switch and takes no value (got "TRUE"): write --allow-mass-removal or --no-allow-mass-removal',
    ],
    [
      ['backfill', '--stream', 'mentions', '--since', '2999-01-01T00:00:00Z'],
      /^--since "2999-01-01T00:00:00Z" is in the future \(now is \d{4}-\d\d-\d\dT[\d:.]+Z\): backfill re-reads what is already there$/,
    ],
    [
      ['verify', '--stream', 'analytics', '--since', '2026-01-01T00:00:00Z'],
      'verify compares a window of a feed: name analytics_history, mentions or citations, not "analytics" (websites and analytics hold the present only: the websites listing is read whole and reconciled by every sync, analytics is each website\'s latest snapshot, replaced as new ones arrive)',
    ],
    [
      ['verify', '--stream', 'mentions', '--since', '2026-01-02T00:00:00Z', '--until', '2026-01-01T00:00:00Z'],
      '--until "2026-01-01T00:00:00Z" is not after --since "2026-01-02T00:00:00Z": the window would be empty',
    ],
    [
      ['verify', '--stream', 'mentions', '--since', '2999-01-01T00:00:00Z'],
      /^--since "2999-01-01T00:00:00Z" is in the future \(now is \d{4}-\d\d-\d\dT[\d:.]+Z\): verify re-reads what is already there$/,
    ],
    [['state', 'reset', '--website', 'site1'], '"site1" in --websites is not a website id (they look like web_123)'],
    [
      ['status', '--max-staleness', '90x'],
      '--max-staleness "90x" is not a duration: write a whole number and one unit (s, m, h or d), like 90m, 6h or 2d',
    ],
  ])('%j', async (args, message) => {
    const { path: file } = config();
    const result = await aivis([...args, '--config', file]);
    expect(result.code).toBe(2);
    expect(jsonLines(result.stderr)).toEqual([failureLine(message, 2)]);
  });
});
