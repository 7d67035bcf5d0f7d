/**
 * `aivis verify` reads through the sync's feed reader, so it gains what a sync does: a website
 * whose reads fail is contained (the others are verified, the command exits 3 naming it) and
 * the per-analysis citations fallback is logged. The real `aivis` process against the sandbox
 * over loopback and a DuckDB file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { microsecondTimestamp } from '../../src/destination/timestamp-micros.ts';
import { type Sandbox, type SandboxVariant, startSandbox } from '../../src/sandbox/index.ts';
import { type CliResult, runCli } from '../support/cli-process.ts';
import { jsonLines } from '../support/json-lines.ts';
import { writeSandboxConfig } from '../support/sandbox-config.ts';

const SINCE = '2020-01-01T00:00:00Z';
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-verify-'));
const sandboxes: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A sandbox of three websites, a config for it and a fresh DuckDB file, and `aivis` run against them. */
async function world(variants: SandboxVariant[] = []) {
  const sandbox = await startSandbox({
    seed: 11,
    websites: 3,
    requestsPerMinute: 0,
    mentionsPerAnalysis: 40,
    citationsPerAnalysis: 10,
    variants,
  });
  sandboxes.push(sandbox);
  const name = `w${sandboxes.length}`;
  const file = writeSandboxConfig(path.join(dir, `${name}.yaml`), sandbox.baseUrl, [
    '  type: duckdb',
    `  path: ${path.join(dir, `${name}.duckdb`)}`,
    '  schema: aivis',
  ]);
  const aivis = (...args: string[]): Promise<CliResult> =>
    runCli([...args, '--config', file], { AIVIS_API_KEY: sandbox.apiKey }).done;
  return { sandbox, aivis };
}

describe('aivis verify reads as a sync does', () => {
  let sandbox: Sandbox;
  let aivis: (...args: string[]) => Promise<CliResult>;
  beforeAll(async () => {
    ({ sandbox, aivis } = await world());
    expect((await aivis('sync')).code).toBe(0);
  });

  it('contains a website whose reads fail: the others are verified, exit 3 names it, human and JSON alike', async () => {
    const state = jsonLines((await aivis('state', 'show')).stdout).filter((e) => e.stream === 'mentions');
    const frontiers = new Map(state.map((e) => [String(e.scope), microsecondTimestamp(String(e.frontier))]));
    const [first, broken, last] = [...frontiers.keys()].sort() as [string, string, string];
    const inWindow = (id: string) =>
      [...sandbox.truth.mentions(id)].filter((m) => microsecondTimestamp(String(m.available_at)) <= frontiers.get(id)!)
        .length;
    const line = (id: string) =>
      `  ${id} 2020-01-01T00:00:00.000000Z .. ${frontiers.get(id)}: api ${inWindow(id)}, destination ${inWindow(id)}, missing 0, extra 0`;
    // The client's own wording for a page that breaks the spec (src/client/scan-guard.ts).
    const error = expect.stringMatching(
      new RegExp(
        `^broken scan \\(200, request_id req_\\d+\\): GET /public/v2/websites/${broken}/mentions: the API sent 501 records in one page, more than the limit of 500 aivis asked for; the page is refused, `,
      ),
    );

    sandbox.faults.set({ kind: 'oversized_page', routes: ['mentions'], websites: [broken] });
    try {
      const human = await aivis('verify', '--streams', 'mentions', '--since', SINCE);
      expect(human.code, human.stderr).toBe(3);
      expect(human.stdout.split('\n')).toEqual([
        'aivis verify mentions: equal; 1 website could not be read',
        line(first),
        line(last),
        expect.stringMatching(new RegExp(`^ {2}${broken} failed: broken scan \\(200, .* the page is refused, `)),
        '  total: 2 websites verified, 1 failed, 0 missing, 0 extra',
        '',
      ]);
      expect(jsonLines(human.stderr)).toContainEqual(
        expect.objectContaining({
          level: 'error',
          msg: 'stream failed for this website; what it read before is kept, the rest go on',
          website_id: broken,
          stream: 'mentions',
          error,
        }),
      );

      const json = await aivis('verify', '--streams', 'mentions', '--since', SINCE, '--json');
      expect(json.code).toBe(3);
      const report = JSON.parse(json.stdout);
      expect(report).toMatchObject({ equal: true, skipped: [], failed: [{ website_id: broken, error }] });
      expect(report.websites.map((w: { website_id: string }) => w.website_id)).toEqual([first, last]);
    } finally {
      sandbox.faults.clear();
    }
    expect((await aivis('verify', '--streams', 'mentions', '--since', SINCE)).code).toBe(0);
  });
});

describe('aivis verify of citations the API wants read per analysis', () => {
  it('logs the fallback once, as a sync does, and finds both sides equal (exit 0)', async () => {
    const { aivis } = await world(['citations_require_analysis_id']);
    const notice = {
      level: 'info',
      msg: 'the API requires analysis_id for citations; reading them one scan per analysis',
    };
    const sync = await aivis('sync');
    expect(sync.code, sync.stderr).toBe(0);
    expect(jsonLines(sync.stderr).filter((l) => l.msg === notice.msg)).toEqual([expect.objectContaining(notice)]);

    const verify = await aivis('verify', '--streams', 'citations', '--since', SINCE);
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout.split('\n')[0]).toBe('aivis verify citations: equal');
    expect(verify.stdout).toMatch(/\n {2}total: 3 websites verified, 0 missing, 0 extra\n$/);
    expect(jsonLines(verify.stderr).filter((l) => l.msg === notice.msg)).toEqual([expect.objectContaining(notice)]);
  });
});

describe('aivis verify of websites never synced', () => {
  it('says nothing was verified, names each website and exits 4 (human and JSON)', async () => {
    const { sandbox, aivis } = await world();
    const ids = (sandbox.truth.websites() as { id: string }[]).map((w) => w.id).sort();
    // One website synced; the other two never were (the listing holds all three).
    expect((await aivis('sync', '--websites', ids[0]!)).code).toBe(0);
    const human = await aivis(
      'verify',
      '--streams',
      'mentions',
      '--since',
      SINCE,
      '--websites',
      ids.slice(1).join(','),
    );
    expect(human.code, human.stderr).toBe(4);
    expect(human.stdout.split('\n')).toEqual([
      'aivis verify mentions: nothing verified; 2 websites in scope never synced',
      ...ids.slice(1).map((id) => `  ${id} not verified: no committed frontier for mentions yet: sync it first`),
      '  total: 0 websites verified, 2 not verified, 0 missing, 0 extra',
      '',
    ]);
    const json = JSON.parse((await aivis('verify', '--streams', 'mentions', '--since', SINCE, '--json')).stdout);
    expect(json.never_synced).toEqual(ids.slice(1));
  });
});
