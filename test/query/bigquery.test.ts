/**
 * `aivis query` on BigQuery: the real SDK against the stand-in, credentials through ADC (an
 * external_account file whose token exchange the stand-in answers). BigQuery's dry run judges
 * the statement (several statements are a SCRIPT) and leaves no job behind.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { type BigqueryStandIn, startBigqueryStandIn } from '../stand-ins/bigquery/bigquery-stand-in.ts';
import { writeAdcFile } from '../stand-ins/bigquery/fake-auth.ts';
import { describeQuery, writeQueryConfig } from './query-suite.ts';

let dir: string;
let standIn: BigqueryStandIn;
const FIXTURE = '`aivis-test.aivis_q.query_fixture`';

async function count(sql: string): Promise<number> {
  const { rows } = await standIn.engine.query(sql);
  return Number((rows[0] as { f: { v: string }[] }).f[0]!.v);
}

describeQuery('BigQuery', {
  table: 'aivis_q.query_fixture',
  column: (name) => name,
  async setup() {
    dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-query-bq-'));
    standIn = await startBigqueryStandIn();
    await standIn.engine.createDataset('aivis_q', 'US');
    await standIn.engine.createTable('aivis_q', {
      tableReference: { projectId: standIn.projectId, datasetId: 'aivis_q', tableId: 'query_fixture' },
      schema: {
        fields: [
          { name: 'id', type: 'INT64' },
          { name: 'big', type: 'INT64' },
          { name: 'name', type: 'STRING' },
          { name: 'payload', type: 'JSON' },
          { name: 'ok', type: 'BOOL' },
        ],
      },
    });
    await standIn.engine.query(
      `INSERT INTO ${FIXTURE} VALUES (1, 9007199254740993, 'comma, "quote"', PARSE_JSON('{"k":[1,2]}'), TRUE), (2, 9007199254740991, NULL, NULL, FALSE)`,
    );
    const config = await writeQueryConfig(path.join(dir, 'aivis.yaml'), [
      '  type: bigquery',
      `  project: ${standIn.projectId}`,
      '  dataset: aivis_q',
      '  location: US',
      `  api_endpoint: ${standIn.url}`,
    ]);
    return { config, env: { GOOGLE_APPLICATION_CREDENTIALS: await writeAdcFile(dir, standIn.url) } };
  },
  async teardown() {
    // No refused statement ever became a job: dry runs leave none, and the gate stopped the rest.
    const ran = standIn.jobs.map((job) => job.configuration.query?.query ?? '');
    expect(ran.filter((sql) => /DELETE|INSERT INTO aivis_q|UPDATE|CREATE|DROP|COPY/.test(sql))).toEqual([]);
    await standIn?.close();
    await rm(dir, { recursive: true, force: true });
  },
  rowCount: () => count(`SELECT COUNT(*) FROM ${FIXTURE}`),
  tableExists: async (name) => standIn.engine.tables.has(`aivis_q.${name}`),
  arrays: "SELECT ['a', 'b c'] AS tags, [1, 2] AS ns",
  engineRefusals: [
    // The leading SELECT passes the keyword check; BigQuery's dry run calls the text a SCRIPT.
    { sql: 'SELECT 1;\nSELECT 2' },
  ],
});
