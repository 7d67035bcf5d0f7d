/** `import-prompts --from-table/--from-query` on DuckDB: the real engine on a file the receipts go to as well. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describeWarehouseSource } from './warehouse-source-suite.ts';

let dir: string;

async function onFile<T>(work: (run: (sql: string) => Promise<unknown[][]>) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(path.join(dir, 'warehouse.duckdb'));
  const connection = await instance.connect();
  try {
    await connection.run('CREATE SCHEMA IF NOT EXISTS aivis_w; SET search_path = aivis_w');
    return await work(async (sql) => (await connection.runAndReadAll(sql)).getRows());
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describeWarehouseSource('DuckDB', {
  async setup() {
    dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-import-duckdb-'));
    return ['  type: duckdb', `  path: ${path.join(dir, 'warehouse.duckdb')}`, '  schema: aivis_w'];
  },
  teardown: () => rm(dir, { recursive: true, force: true }),
  exec: (sql) => onFile(async (run) => void (await run(sql))),
  column: (name) => name,
  types: { text: 'VARCHAR' },
  arrays: { textArray: 'VARCHAR[]', tags: (tags) => `[${tags.map((t) => `'${t}'`).join(', ')}]`, integers: '[1, 2]' },
  random: 'random()',
  digests: (websiteId) =>
    onFile(async (run) =>
      Number(
        (
          await run(
            `SELECT count(DISTINCT text_sha256) FROM prompt_import_items WHERE website_id = '${websiteId}' AND text_sha256 IS NOT NULL`,
          )
        )[0]![0],
      ),
    ),
});
