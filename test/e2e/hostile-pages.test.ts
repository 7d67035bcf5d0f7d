/**
 * Pages that cost what no client expects, read as the container image runs aivis: the real
 * `aivis sync` process under the image's heap flags (Dockerfile: `--max-semi-space-size=1
 * --max-old-space-size=256`), real Postgres, one website's feed hostile and the other honest.
 * Before the page bounds (docs/spec-reading.md#page-bounds) the first two aborted V8 (exit 134)
 * and left the run `running`. Each run ends by itself: a page over its limit is refused for
 * its website alone (exit 3), a page of long records is loaded whole, an echoed key is stored
 * nowhere however it was escaped, and the next run against a server that behaves is whole.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { ENGINE_TABLES, mentionsTable, rejectedTable, runsTable } from '../../src/tables/index.ts';
import { runCli, type CliResult } from '../support/cli-process.ts';
import { postgresTarget } from '../support/targets/postgres-target.ts';
import { comparable, expectedTables } from './expected-rows.ts';
import { openWorld, SANDBOX } from './sync-suite.ts';

const url = inject('postgresUrl');
const target = postgresTarget(url);
const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-hostile-pages-'));
afterAll(async () => {
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The container image's heap (Dockerfile `NODE_OPTIONS`). */
const IMAGE_HEAP = '--max-semi-space-size=1 --max-old-space-size=256';

describe('hostile pages, under the container image heap (real CLI process, real Postgres)', () => {
  let world: Awaited<ReturnType<typeof openWorld>>;
  let hostile: string;
  let honest: string;
  let sync: () => Promise<CliResult>;

  beforeEach(async () => {
    // Two measured websites of 500 mentions each: one full page (limit 500) per scan.
    world = await openWorld(target, { ...SANDBOX, websites: 2, analysesPerWebsite: 2, mentionsPerAnalysis: 250 });
    [hostile, honest] = (world.sandbox.truth.websites() as { id: string }[]).map((w) => w.id) as [string, string];
    const configPath = path.join(dir, `${world.schema}.yaml`);
    writeFileSync(
      configPath,
      [
        'source:',
        `  base_url: ${world.sandbox.baseUrl}`,
        '  api_key: ${AIVIS_E2E_API_KEY}',
        '  requests_per_minute: 6000',
        'destination:',
        '  type: postgres',
        '  url: ${AIVIS_E2E_DATABASE_URL}',
        `  schema: ${world.schema}`,
        'streams:',
        '  mentions: {}',
        '',
      ].join('\n'),
    );
    const env = {
      AIVIS_E2E_API_KEY: world.sandbox.apiKey,
      AIVIS_E2E_DATABASE_URL: url,
      NODE_OPTIONS: IMAGE_HEAP,
    };
    sync = () => runCli(['sync', '--config', configPath], env).done;
  });
  afterEach(async () => {
    await world.close();
  });

  const mentionsOf = async (websiteId: string) =>
    (await world.rows(mentionsTable)).filter((r) => r.website_id === websiteId);
  const truthOf = (websiteId: string) =>
    (expectedTables(world.sandbox).get(mentionsTable.name) ?? []).filter((r) => r.website_id === websiteId);
  /** The run ended by itself, said why in one line, and closed its run row. */
  const expectEndedCleanly = async (run: CliResult, exitCode: number, status: string) => {
    expect(run.signal).toBeNull();
    expect(run.code, run.stderr.slice(-2000)).toBe(exitCode);
    expect(run.stderr).not.toMatch(/\n\s+at |FATAL ERROR|heap out of memory/);
    const runs = (await world.rows(runsTable)).map((r) => r.status);
    expect(runs).not.toContain('running');
    expect(runs).toContain(status);
  };
  const expectHonestLoaded = async () =>
    expect(comparable(mentionsTable, await mentionsOf(honest))).toEqual(comparable(mentionsTable, truthOf(honest)));
  const expectNextRunWhole = async () => {
    world.sandbox.faults.clear();
    const next = await sync();
    await expectEndedCleanly(next, 0, 'succeeded');
    expect(comparable(mentionsTable, await world.rows(mentionsTable))).toEqual(
      comparable(mentionsTable, expectedTables(world.sandbox).get(mentionsTable.name) ?? []),
    );
  };

  it('refuses a 49 MB page of 150,000 mentions (limit 500 asked) for its website alone: exit 3', async () => {
    world.sandbox.faults.set({ kind: 'oversized_page', routes: ['mentions'], websites: [hostile], records: 150_000 });
    const run = await sync();
    await expectEndedCleanly(run, 3, 'partial');
    expect(run.stderr).toContain(
      `GET /public/v2/websites/${hostile}/mentions: the API sent 150000 records in one page, more than the limit of 500 aivis asked for; the page is refused`,
    );
    expect(await mentionsOf(hostile)).toEqual([]);
    await expectHonestLoaded();
    await expectNextRunWhole();
  });

  it('loads a page of 500 records of 120,000 characters each (60 MB), whole', async () => {
    world.sandbox.faults.set({ kind: 'huge_records', routes: ['mentions'], websites: [hostile], count: 1 });
    const run = await sync();
    await expectEndedCleanly(run, 0, 'succeeded');
    const rows = await mentionsOf(hostile);
    expect(rows.map((r) => (r.sentence_text as string).length)).toEqual(rows.map(() => 120_000));
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(truthOf(hostile).map((r) => r.id)));
    await expectHonestLoaded();
  });

  it('stores the API key echoed in \\u escapes nowhere, in any column of any table', async () => {
    world.sandbox.faults.set({ kind: 'escaped_key', routes: ['mentions'], websites: [hostile], count: 1 });
    world.sandbox.faults.set({
      kind: 'escaped_key',
      routes: ['mentions'],
      websites: [honest],
      count: 1,
      field: 'sentiment', // not a number: the record goes to _aivis_rejected with its text
    });
    const run = await sync();
    await expectEndedCleanly(run, 3, 'partial');
    const first = [...world.sandbox.truth.mentions(hostile)][0]!.id;
    const echoed = (await mentionsOf(hostile)).find((r) => r.id === first)!;
    expect(echoed.sentence_text).toBe('the key is [REDACTED], again: [REDACTED]');
    const [rejected] = await world.rows(rejectedTable);
    expect((rejected!._raw as { sentiment: string }).sentiment).toBe('the key is [REDACTED], again: [REDACTED]');
    expect(run.stderr).not.toContain(world.sandbox.apiKey);
    for (const table of [mentionsTable, ...ENGINE_TABLES])
      expect(
        JSON.stringify(await world.rows(table), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
        table.name,
      ).not.toContain(world.sandbox.apiKey);
    // The redacted records stay as stored (they are behind the frontier); the next run is whole.
    world.sandbox.faults.clear();
    await expectEndedCleanly(await sync(), 0, 'succeeded');
  });
});
