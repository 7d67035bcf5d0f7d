/**
 * Every `sql` block in README.md and docs/ runs as written on DuckDB and on Postgres after a
 * real `aivis sync` (a child process, as a user runs it) of the bundled sandbox into schema
 * `aivis`. A block whose fence says `for=bigquery` (or another list without duckdb/postgres)
 * runs only where it says; `sql fragment` never runs.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { runCli } from '../support/cli-process.ts';
import { type DocFile, docFiles, fences, sqlTargets } from './markdown.ts';

/** Runs one statement; rejects with the database's message. */
type Execute = (statement: string) => Promise<void>;

/** The statements of a block: split at a `;` that ends a line, comments-only pieces dropped. */
function statements(sql: string): string[] {
  return sql
    .split(/;[ \t]*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.split('\n').some((line) => line.trim() !== '' && !line.trim().startsWith('--')));
}

/** Why each `sql` block fails where its fence says it runs (empty when all run). */
async function sqlProblems(files: readonly DocFile[], targets: Record<string, Execute>): Promise<string[]> {
  const problems: string[] = [];
  for (const fence of files.flatMap(fences).filter((f) => f.lang === 'sql')) {
    for (const target of sqlTargets(fence)) {
      for (const statement of statements(fence.body)) {
        const error = await targets[target]!(statement).then(
          () => undefined,
          (e: unknown) => (e instanceof Error ? e.message : String(e)),
        );
        if (error !== undefined) problems.push(`${fence.where} on ${target}: ${error.split('\n')[0]}`);
      }
    }
  }
  return problems;
}

/** `aivis sync` of the sandbox with `destination`, as a child process; fails the test unless it exits 0. */
async function syncInto(dir: string, sandbox: Sandbox, destination: string, env: NodeJS.ProcessEnv): Promise<void> {
  const config = path.join(dir, `${randomUUID()}.yaml`);
  await writeFile(
    config,
    [
      'source:',
      `  base_url: ${sandbox.baseUrl}`,
      '  api_key: ${AIVIS_API_KEY}',
      '  requests_per_minute: 6000',
      `destination: ${destination}`,
    ].join('\n'),
  );
  const result = await runCli(['sync', '--config', config], { AIVIS_API_KEY: sandbox.apiKey, ...env }).done;
  expect(result.stderr.split('\n').filter((line) => line.includes('"level":"error"'))).toEqual([]);
  expect(result.code).toBe(0);
}

describe('SQL blocks in the docs, after a sandbox sync', () => {
  let sandbox: Sandbox;
  let dir: string;
  let duckdb: DuckDBInstance;
  let postgres: pg.Client;
  let admin: pg.Client;
  const database = `aivis_docs_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const targets: Record<string, Execute> = {};
  /** The rows a query returns, on each destination. */
  const rowsOf: Record<string, (query: string) => Promise<unknown[]>> = {};

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 1, websites: 5, requestsPerMinute: 0 });
    dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-docs-sql-'));
    // A database of its own, so the docs' schema `aivis` meets no other test's.
    const url = new URL(inject('postgresUrl'));
    admin = new pg.Client({ connectionString: url.href });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    url.pathname = `/${database}`;
    // The file's name is not the schema's, so `aivis.<table>` names the schema in a fresh session.
    const file = path.join(dir, 'sandbox.duckdb');
    await Promise.all([
      syncInto(dir, sandbox, `{ type: duckdb, path: ${file}, schema: aivis }`, {}),
      syncInto(dir, sandbox, '{ type: postgres, url: "${DATABASE_URL}", schema: aivis }', { DATABASE_URL: url.href }),
    ]);
    duckdb = await DuckDBInstance.create(file);
    const connection = await duckdb.connect();
    targets.duckdb = async (statement) => void (await connection.run(statement));
    rowsOf.duckdb = async (query) => (await connection.runAndReadAll(query)).getRowObjects();
    postgres = new pg.Client({ connectionString: url.href });
    await postgres.connect();
    targets.postgres = async (statement) => void (await postgres.query(statement));
    rowsOf.postgres = async (query) => (await postgres.query(query)).rows;
  }, 180_000);

  afterAll(async () => {
    duckdb?.closeSync();
    await postgres?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin?.end();
    await sandbox?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('there are some that run on both', () => {
    const blocks = docFiles()
      .flatMap(fences)
      .filter((f) => f.lang === 'sql' && sqlTargets(f).length === 2);
    expect(blocks.length).toBeGreaterThan(5);
  });

  it('every one runs on DuckDB and Postgres as written', async () => {
    expect(await sqlProblems(docFiles(), targets)).toEqual([]);
  });

  it("getting-started's latest visibility has one row per listed website, the unmeasured one included", async () => {
    const page = docFiles().find((f) => f.name === 'docs/getting-started.md')!;
    const [query] = fences(page).filter((f) => f.lang === 'sql' && f.body.includes('analytics_latest'));
    expect(sqlTargets(query!)).toEqual(['duckdb', 'postgres']);
    for (const target of sqlTargets(query!)) {
      const listed = await rowsOf[target]!('select id from aivis.websites where _removed_at is null');
      const measured = await rowsOf[target]!('select website_id from aivis.analytics_latest');
      // The sandbox lists 5 websites and has not measured them all: an inner join would drop one.
      expect([listed.length, measured.length < listed.length]).toEqual([5, true]);
      expect(await rowsOf[target]!(query!.body.replace(/;\s*$/, '')), target).toHaveLength(listed.length);
    }
  });

  it("tables.md's monthly trend splits each website's series where the visibility definition changes", async () => {
    const page = docFiles().find((f) => f.name === 'docs/tables.md')!;
    const [trend] = fences(page).filter((f) => f.lang === 'sql' && f.body.includes('analytics_history'));
    for (const target of sqlTargets(trend!)) {
      const rows = (await rowsOf[target]!(trend!.body.replace(/;\s*$/, ''))) as Record<string, unknown>[];
      // The sandbox's fourth analysis of every website moves from visibility_v1 to visibility_v2.
      expect(new Set(rows.map((r) => r.visibility_definition)), target).toEqual(
        new Set(['visibility_v1', 'visibility_v2']),
      );
    }
  });

  it('fails on a column or table that does not exist; runs only where the fence says', async () => {
    const broken: DocFile = {
      name: 'broken.md',
      text: [
        '```sql',
        'select id from aivis.websites;',
        '-- a column the table does not have',
        'select visibilty from aivis.analytics_latest;',
        '```',
        '```sql for=postgres',
        'select * from aivis.no_such_table',
        '```',
        '```sql for=bigquery',
        'select `backticks` from `project.aivis.websites`',
        '```',
        '```sql fragment',
        'GRANT nonsense',
        '```',
      ].join('\n'),
    };
    const problems = await sqlProblems([broken], targets);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^broken\.md:1 on duckdb: .*visibilty/);
    expect(problems[1]).toMatch(/^broken\.md:1 on postgres: column "visibilty" does not exist/);
    expect(problems[2]).toMatch(/^broken\.md:6 on postgres: relation "aivis.no_such_table" does not exist/);
  });
});
