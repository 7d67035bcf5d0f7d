/**
 * The DuckDB default as a new user meets it: `destination: { type: duckdb }` alone, then the
 * README's `aivis.<table>` in a fresh DuckDB session opened on the file; `check` naming the
 * file and warning about a file named like its schema; an upgraded config relying on the
 * earlier default refused before it starts an empty database.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { queryDuckDbFile } from '../support/duckdb-file.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';

let sandbox: Sandbox;
const root = mkdtempSync(path.join(os.tmpdir(), 'aivis-duckdb-default-'));
beforeAll(async () => {
  sandbox = await startSandbox({
    seed: 3,
    websites: 2,
    requestsPerMinute: 0,
    mentionsPerAnalysis: 5,
    citationsPerAnalysis: 2,
  });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

let folders = 0;
/** A folder with `aivis.yaml` whose destination block is `destination`. */
function configIn(destination: readonly string[]): { dir: string; config: string } {
  const dir = path.join(root, `f${++folders}`);
  const config = path.join(dir, 'aivis.yaml');
  mkdirSync(dir);
  const source = [
    'source:',
    `  base_url: ${sandbox.baseUrl}`,
    '  api_key: ${AIVIS_API_KEY}',
    '  requests_per_minute: 100',
  ];
  writeFileSync(config, [...source, ...destination, ''].join('\n'));
  return { dir, config };
}

const aivis = (args: string[]) => runCli(args, { AIVIS_API_KEY: sandbox.apiKey }).done;

/** A query in a fresh DuckDB session opened on `file`, as `duckdb file` opens it. */
const freshSession = queryDuckDbFile;

describe('the DuckDB default', () => {
  it('destination: { type: duckdb } alone: aivis.websites and the views resolve in a fresh session on the file', async () => {
    const { dir, config } = configIn(['destination: { type: duckdb }']);
    const file = path.join(dir, 'aivis_data.duckdb');
    const check = await aivis(['check', '--config', config]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(`ok   destination duckdb (file ${file}): reachable, can create and write tables\n`);
    expect(check.stdout).not.toContain('warn');
    const sync = await aivis(['sync', '--config', config]);
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(new RegExp(`\\n  duckdb file ${file.replaceAll('.', '\\.')}  \\d+ flushes\\n`));
    const [websites] = await freshSession(file, 'SELECT count(*)::INTEGER AS n FROM aivis.websites');
    expect(websites).toEqual({ n: sandbox.truth.websites().length });
    const [current] = await freshSession(file, 'SELECT count(*)::INTEGER AS n FROM aivis.websites_current');
    expect(current).toEqual({ n: sandbox.truth.websites().length });
  });

  it('check warns about a file named like its schema, naming the fix, and still exits 0', async () => {
    const { dir, config } = configIn(['destination:', '  type: duckdb', '  path: ./aivis.duckdb', '  schema: aivis']);
    const file = path.join(dir, 'aivis.duckdb');
    const check = await aivis(['check', '--config', config]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(
      `warn destination duckdb (file ${file}): the file name aivis.duckdb makes DuckDB call its catalog "aivis", like the schema, so aivis.websites is ambiguous in a session on the file (write aivis.aivis.websites); to fix it, rename the file (e.g. mv aivis.duckdb aivis_data.duckdb) and set destination.path to it, or set destination.schema to another name\n`,
    );
  });

  it('refuses (exit 2) to start an empty default file beside the earlier default aivis.duckdb, naming the rename', async () => {
    const { dir, config } = configIn([]);
    const earlier = path.join(dir, 'aivis.duckdb');
    await freshSession(earlier, 'CREATE SCHEMA aivis');
    const sync = await aivis(['sync', '--config', config]);
    expect(sync.code).toBe(2);
    const now = path.join(dir, 'aivis_data.duckdb');
    expect(sync.stderr).toContain(
      `found ${earlier}, the default database file of aivis 0.1, but not ${now}, the default now: rename it (mv ${earlier} ${now}) to keep its rows and state, or set destination.path: ./aivis.duckdb to go on using it`,
    );
  });
});
