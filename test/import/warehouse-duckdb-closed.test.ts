/**
 * `import-prompts --from-query/--from-table` on DuckDB read the warehouse and nothing else: no
 * local file through `read_text`, `read_csv` or a quoted file name, and no write a SELECT can
 * hide (`nextval`). Each is exit 2 naming what was refused, and the sandbox sees no import.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './import-harness.ts';

let dir: string;
let h: Harness;
/** A local CSV of prompts, the kind of file a hostile statement would send to the API. */
let localCsv: string;

async function onFile<T>(work: (run: (sql: string) => Promise<unknown[][]>) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(path.join(dir, 'warehouse.duckdb'));
  const connection = await instance.connect();
  try {
    await connection.run('CREATE SCHEMA IF NOT EXISTS aivis_c; SET search_path = aivis_c');
    return await work(async (sql) => (await connection.runAndReadAll(sql)).getRows());
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const imports = () => h.sandbox.stats.byRoute['prompts.import'] ?? 0;

async function refused(args: Parameters<Harness['run']>[0]): Promise<string | undefined> {
  const result = await h.run(args);
  expect(imports()).toBe(0);
  expect(result.code).toBe(2);
  expect(result.out).toBe('');
  return result.error;
}

describe('import-prompts on DuckDB reads the warehouse only', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-import-closed-'));
    localCsv = path.join(dir, 'prompts.csv');
    await writeFile(localCsv, 'prompt_text\nWhich CRM is best for a team of ten?\n');
    await onFile((run) =>
      run("CREATE SEQUENCE seq; CREATE VIEW advancing AS SELECT nextval('aivis_c.seq')::VARCHAR AS prompt_text"),
    );
    h = await startHarness(
      ['destination:', '  type: duckdb', `  path: ${path.join(dir, 'warehouse.duckdb')}`, '  schema: aivis_c', ''].join(
        '\n',
      ),
      { websites: 0 },
    );
  }, 120_000);
  afterAll(async () => {
    await h?.sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('--from-query reading a file is refused, naming the file, and nothing is sent', async () => {
    expect(await refused({ 'from-query': `SELECT content AS prompt_text FROM read_text('${localCsv}')` })).toBe(
      `--from-query reads tables and views of the warehouse only, never a file: "${localCsv}" was refused unread`,
    );
    expect(await refused({ 'from-query': `SELECT prompt_text FROM read_csv('${localCsv}')` })).toBe(
      `--from-query reads tables and views of the warehouse only, never a file: "${localCsv}" was refused unread`,
    );
    expect(await refused({ 'from-query': "SELECT * FROM read_text('/etc/passwd')" })).toBe(
      '--from-query reads tables and views of the warehouse only, never a file: "/etc/passwd" was refused unread',
    );
  });

  it('--from-table names a table or view, never a file: a quoted file name is refused', async () => {
    expect(await refused({ 'from-table': `"${localCsv}"` })).toBe(
      `--from-table "${localCsv}" reads tables and views of the warehouse only, never a file: "${localCsv}" was refused unread`,
    );
    expect(await refused({ 'from-table': "'some.csv'" })).toBe(
      "--from-table 'some.csv': a quoted string names a file, and --from-table reads a table or view of the warehouse, never a file; give table, schema.table or database.schema.table",
    );
  });

  it('a statement or view that advances a sequence is refused, and the sequence stays where it was', async () => {
    const notReadOnly = (caller: string) =>
      `${caller} runs read-only statements only, and this is a writing statement: refused before it ran (read with SELECT; change data with the warehouse's own tools)`;
    expect(await refused({ 'from-query': "SELECT nextval('aivis_c.seq')::VARCHAR AS prompt_text" })).toBe(
      notReadOnly('--from-query'),
    );
    expect(await refused({ 'from-table': 'advancing' })).toBe(notReadOnly('--from-table advancing'));
    expect(await onFile(async (run) => (await run("SELECT nextval('aivis_c.seq')"))[0]![0])).toBe(1n);
  });

  it('still imports a table of the warehouse in the same closed session', async () => {
    await onFile((run) => run("CREATE TABLE plain AS SELECT 'Which CRM suits a team of twenty?' AS prompt_text"));
    const result = await h.run({ 'from-table': 'plain' });
    expect(result.error).toBeUndefined();
    expect(result.code).toBe(0);
    expect(result.out).toContain('Rows: 1 read, 0 already known, 1 sent (created 1, skipped 0)');
    expect(imports()).toBe(1);
  });
});
