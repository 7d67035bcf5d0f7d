/**
 * `import-prompts --from-table/--from-query` on BigQuery: the real SDK against the stand-in; an
 * unqualified table (and aivis's own receipt tables) resolve in the configured dataset.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BigqueryStandIn, startBigqueryStandIn } from '../stand-ins/bigquery/bigquery-stand-in.ts';
import { writeAdcFile } from '../stand-ins/bigquery/fake-auth.ts';
import { describeWarehouseSource } from './warehouse-source-suite.ts';

let dir: string;
let standIn: BigqueryStandIn;
const qualified = (name: string) => `\`${standIn.projectId}.aivis_w.${name}\``;

describeWarehouseSource('BigQuery', {
  async setup() {
    dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-import-bq-'));
    standIn = await startBigqueryStandIn();
    await standIn.engine.createDataset('aivis_w', 'US');
    process.env.GOOGLE_APPLICATION_CREDENTIALS = await writeAdcFile(dir, standIn.url);
    return [
      '  type: bigquery',
      `  project: ${standIn.projectId}`,
      '  dataset: aivis_w',
      '  location: US',
      `  api_endpoint: ${standIn.url}`,
    ];
  },
  async teardown() {
    await standIn?.close();
    await rm(dir, { recursive: true, force: true });
  },
  // The stand-in creates tables through the API, as aivis does (an ARRAY<T> column is a REPEATED
  // field of T); its inserts need qualified names.
  async exec(sql) {
    const create = /^CREATE TABLE (\w+) \((.*)\)$/.exec(sql);
    if (!create) {
      await standIn.engine.query(sql.replace(/\bINSERT INTO (\w+)/g, (_, name) => `INSERT INTO ${qualified(name)}`));
      return;
    }
    const fields = create[2]!.split(', ').map((column) => {
      const [name, type] = column.split(' ') as [string, string];
      const element = /^ARRAY<(\w+)>$/.exec(type)?.[1];
      return element ? { name, type: element, mode: 'REPEATED' } : { name, type };
    });
    await standIn.engine.createTable('aivis_w', {
      tableReference: { projectId: standIn.projectId, datasetId: 'aivis_w', tableId: create[1]! },
      schema: { fields },
    });
  },
  table: (name) => `aivis_w.${name}`,
  column: (name) => name,
  types: { text: 'STRING' },
  arrays: {
    textArray: 'ARRAY<STRING>',
    tags: (tags) => `[${tags.map((t) => `'${t}'`).join(', ')}]`,
    integers: '[1, 2]',
  },
  random: 'RAND()',
  digests: async (websiteId) => {
    const { rows } = await standIn.engine.query(
      `SELECT COUNT(DISTINCT text_sha256) FROM ${qualified('prompt_import_items')} WHERE website_id = '${websiteId}' AND text_sha256 IS NOT NULL`,
    );
    return Number((rows[0] as { f: { v: string }[] }).f[0]!.v);
  },
});
