/**
 * `aivis query` on DuckDB: the real engine on a file, opened read-only; the prepared
 * statement's type refuses what the leading keyword lets through; a sync in another process
 * holds the file.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../support/child-env.ts';
import { runCli } from '../support/cli-process.ts';
import { spawnLockHolder } from '../locks/spawn-lock-holder.ts';
import { describeQuery, lastMessage, writeQueryConfig } from './query-suite.ts';

let dir: string;
const file = () => path.join(dir, 'warehouse.duckdb');

/** Runs statements on the file with a connection of its own, closed after. */
async function onFile<T>(work: (run: (sql: string) => Promise<unknown[][]>) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(file());
  const connection = await instance.connect();
  try {
    return await work(async (sql) => (await connection.runAndReadAll(sql)).getRows());
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

function writeConfig(name: string, destination: string[]): Promise<string> {
  return writeQueryConfig(path.join(dir, name), destination);
}

describeQuery('DuckDB', {
  table: 'aivis_q.query_fixture',
  column: (name) => name,
  async setup() {
    dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-query-duckdb-'));
    await onFile(async (run) => {
      await run('CREATE SCHEMA aivis_q');
      await run('CREATE TABLE aivis_q.query_fixture (id BIGINT, big BIGINT, name VARCHAR, payload JSON, ok BOOLEAN)');
      await run(
        `INSERT INTO aivis_q.query_fixture VALUES (1, 9007199254740993, 'comma, "quote"', '{"k":[1,2]}', true), (2, 9007199254740991, NULL, NULL, false)`,
      );
    });
    const config = await writeConfig('aivis.yaml', [
      '  type: duckdb',
      '  path: ./warehouse.duckdb',
      '  schema: aivis_q',
    ]);
    return { config, env: {} };
  },
  teardown: () => rm(dir, { recursive: true, force: true }),
  rowCount: () => onFile(async (run) => Number((await run('SELECT count(*) FROM aivis_q.query_fixture'))[0]![0])),
  tableExists: (name) =>
    onFile(
      async (run) =>
        (await run(`SELECT 1 FROM information_schema.tables WHERE table_schema = 'aivis_q' AND table_name = '${name}'`))
          .length > 0,
    ),
  arrays: "SELECT ['a', 'b c'] AS tags, [1, 2] AS ns",
  engineRefusals: [
    { sql: "ATTACH '/tmp/aivis-query-attached.duckdb' AS other", kind: 'ATTACH' },
    { sql: "PRAGMA table_info('aivis_q.query_fixture')", kind: 'PRAGMA' },
    { sql: 'SET threads = 1', kind: 'SET' },
    { sql: 'CALL pragma_version()', kind: 'CALL' },
    { sql: 'EXPLAIN SELECT 1', kind: 'EXPLAIN' },
    // The leading WITH passes the keyword check; DuckDB's prepared statement says INSERT.
    { sql: 'WITH n AS (SELECT 3 AS id) INSERT INTO aivis_q.query_fixture (id) SELECT id FROM n', kind: 'INSERT' },
    { sql: 'SELECT 1;\nINSERT INTO aivis_q.query_fixture (id) VALUES (4)' },
  ],
});

describe('aivis query on DuckDB, the file itself', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-query-duckdb-'));
    await onFile((run) => run('CREATE SCHEMA aivis'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('resolves unqualified names in the configured schema, and leaves no file behind for a refused ATTACH or COPY', async () => {
    await onFile(async (run) => {
      await run('CREATE SCHEMA IF NOT EXISTS aivis_u');
      await run('CREATE TABLE IF NOT EXISTS aivis_u.websites AS SELECT 7 AS id');
    });
    const config = await writeConfig('unqualified.yaml', [
      '  type: duckdb',
      '  path: ./warehouse.duckdb',
      '  schema: aivis_u',
    ]);
    const result = await runCli(['query', '--config', config, 'SELECT id FROM websites'], {}).done;
    expect(result.stdout).toBe('id\n7\n');
    expect(result.code).toBe(0);
    expect(existsSync('/tmp/aivis-query-attached.duckdb')).toBe(false);
    expect(existsSync('/tmp/aivis-query-copy.csv')).toBe(false);
  });

  it('reads no file but the warehouse: read_text, read_csv and glob are refused, unread', async () => {
    const config = await writeConfig('files.yaml', ['  type: duckdb', '  path: ./warehouse.duckdb', '  schema: aivis']);
    const statements: [string, string][] = [
      ["SELECT * FROM read_text('/etc/passwd')", '/etc/passwd'],
      ["SELECT * FROM read_csv('/etc/passwd')", '/etc/passwd'],
      ["SELECT * FROM glob('/etc/*')", '/etc/*'],
    ];
    for (const [sql, file] of statements) {
      const result = await runCli(['query', '--config', config, sql], {}).done;
      expect(lastMessage(result)).toBe(
        `aivis query reads tables and views of the warehouse only, never a file: "${file}" was refused unread`,
      );
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).not.toContain('root:');
    }
  });

  it('cannot advance a sequence: the file is opened read-only', async () => {
    await onFile((run) => run('CREATE SEQUENCE IF NOT EXISTS aivis.seq'));
    const config = await writeConfig('seq.yaml', ['  type: duckdb', '  path: ./warehouse.duckdb', '  schema: aivis']);
    const result = await runCli(['query', '--config', config, "SELECT nextval('aivis.seq')"], {}).done;
    expect(lastMessage(result)).toBe(
      "aivis query runs read-only statements only, and this is a writing statement: refused before it ran (read with SELECT; change data with the warehouse's own tools)",
    );
    expect(result.code).toBe(2);
    expect(await onFile(async (run) => (await run("SELECT nextval('aivis.seq')"))[0]![0])).toBe(1n);
  });

  it('says a sync holds the file, and what to do, with exit 1', async () => {
    await onFile(async (run) => run('CREATE SCHEMA IF NOT EXISTS aivis_l'));
    const config = await writeConfig('locked.yaml', [
      '  type: duckdb',
      '  path: ./warehouse.duckdb',
      '  schema: aivis_l',
    ]);
    const holder = await spawnLockHolder('duckdb', file(), 'aivis_l');
    try {
      const result = await runCli(['query', '--config', config, 'SELECT 1'], {}).done;
      expect(lastMessage(result)).toBe(
        `the DuckDB file "${file()}" is in use by another process (pid ${holder.pid}), most likely a running aivis sync: ` +
          'DuckDB lets one process open a file while it writes; wait for the sync to finish, or query a copy of the file ' +
          '(copy it, then point destination.path of a second config at the copy)',
      );
      expect(result.code).toBe(1);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      await holder.kill();
    }
  });

  it('on a terminal prints a table by default (stdout a TTY, as `script` gives it)', async () => {
    const config = await writeConfig('tty.yaml', ['  type: duckdb', '  path: ./warehouse.duckdb', '  schema: aivis']);
    const command = [
      process.execPath,
      '--import',
      './test/setup/loopback-guard.ts',
      'src/cli/main.ts',
      'query',
      '--config',
      config,
      "'SELECT 42 AS answer'",
    ].join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(out.replaceAll('\r\n', '\n')).toBe(['answer', '------', '    42', '(1 row)', ''].join('\n'));
    expect(code).toBe(0);
  });

  it('takes the statement as one argument, and says to quote it', async () => {
    const config = await writeConfig('words.yaml', ['  type: duckdb', '  path: ./warehouse.duckdb', '  schema: aivis']);
    const split = await runCli(['query', '--config', config, 'SELECT', '1'], {}).done;
    expect(lastMessage(split)).toBe(
      'aivis query takes the statement as one argument, and got 2 words: put it in quotes, e.g. aivis query --config aivis.yaml "SELECT 1"',
    );
    expect(split.code).toBe(2);
    const none = await runCli(['query', '--config', config], {}).done;
    expect(lastMessage(none)).toBe(
      'aivis query needs the statement to run, in quotes: aivis query --config aivis.yaml "SELECT * FROM websites"',
    );
    expect(none.code).toBe(2);
  });

  it('shows the first 1,000 rows as a table and says so; CSV prints every row', async () => {
    const config = await writeConfig('many.yaml', ['  type: duckdb', '  path: ./warehouse.duckdb', '  schema: aivis']);
    const many = 'SELECT range AS n FROM range(2500)';
    const table = await runCli(['query', '--config', config, '--format', 'table', many], {}).done;
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2 + 1000 + 1);
    expect(lines.slice(0, 3)).toEqual(['n', '---', '  0']);
    expect(lines.at(-2)).toBe('999');
    expect(lines.at(-1)).toBe('(1000 rows; only the first 1000 are shown: add --format csv to print every row)');
    const csv = await runCli(['query', '--config', config, many], {}).done;
    expect(csv.stdout.split('\n').slice(0, 3)).toEqual(['n', '0', '1']);
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(1 + 2500);
    expect(csv.code).toBe(0);
  });

  it('names a file that does not exist, with exit 2, and creates none', async () => {
    const config = await writeConfig('missing.yaml', ['  type: duckdb', '  path: ./typo.duckdb', '  schema: aivis']);
    const result = await runCli(['query', '--config', config, 'SELECT 1'], {}).done;
    expect(lastMessage(result)).toBe(
      `there is no DuckDB file at "${path.join(dir, 'typo.duckdb')}" (destination.path): run aivis sync first, or fix destination.path`,
    );
    expect(result.code).toBe(2);
    expect(existsSync(path.join(dir, 'typo.duckdb'))).toBe(false);
  });
});
