/**
 * `aivis import-prompts` as an OpenLineage run: its input the file, its output the website's
 * prompt library at the API, `rowCount` the prompts this run created (a replay creates none);
 * a validation creates nothing and sends no events. Events through the file transport, each
 * valid against the official schemas.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptsCsv, startHarness, type Harness } from '../import/import-harness.ts';
import { runEventErrors } from '../support/openlineage-schema.ts';
import { DuckDBInstance } from '@duckdb/node-api';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-import-lineage-'));
const lineageFile = path.join(dir, 'lineage.jsonl');
let h: Harness;

beforeAll(async () => {
  h = await startHarness(`openlineage:\n  transport: { type: file, path: ${lineageFile} }\n`);
});
afterAll(async () => {
  await h.sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const events = () =>
  readFileSync(lineageFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('import-prompts lineage', () => {
  it('START then COMPLETE: the file in, the prompt library out, rowCount = prompts created', async () => {
    const file = await h.file('ten.csv', promptsCsv(10));
    const validated = await h.run({ file, 'validate-only': true });
    expect(validated.code).toBe(0);
    expect(() => readFileSync(lineageFile)).toThrow(/ENOENT/);

    const first = await h.run({ file, json: true });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out).totals.created).toBe(10);
    const replay = await h.run({ file, json: true });
    expect(JSON.parse(replay.out).totals.created).toBe(0);

    const all = events();
    for (const event of all) expect(runEventErrors(event)).toEqual([]);
    expect(all.map((e) => e.eventType)).toEqual(['START', 'COMPLETE', 'START', 'COMPLETE']);
    const [start, complete, , replayed] = all;
    expect(complete.run.runId).toBe(start.run.runId);
    expect(replayed.run.runId).not.toBe(start.run.runId);
    expect(complete.job).toMatchObject({ namespace: 'aivis', name: 'default.import-prompts' });
    expect(complete.inputs).toEqual([{ namespace: 'file', name: file }]);
    expect(complete.outputs).toEqual([
      {
        namespace: h.sandbox.baseUrl,
        name: `websites/${h.websiteId}/prompts`,
        outputFacets: { outputStatistics: expect.objectContaining({ rowCount: 10 }) },
      },
    ]);
    expect(replayed.outputs[0].outputFacets.outputStatistics.rowCount).toBe(0);
    expect(readFileSync(lineageFile, 'utf8')).not.toContain(h.sandbox.apiKey);
  });
});

describe('import-prompts --from-table lineage', () => {
  it('names the table as the input, as the destination names its tables', async () => {
    const tableDir = mkdtempSync(path.join(os.tmpdir(), 'aivis-import-lineage-table-'));
    const warehouse = path.join(tableDir, 'warehouse.duckdb');
    const events = path.join(tableDir, 'lineage.jsonl');
    const instance = await DuckDBInstance.create(warehouse);
    const connection = await instance.connect();
    await connection.run(
      "CREATE SCHEMA aivis_l; CREATE TABLE aivis_l.prompts_src AS SELECT 'What is the best CRM for team number 1?' AS prompt_text",
    );
    connection.closeSync();
    instance.closeSync();
    const t = await startHarness(
      `openlineage:\n  transport: { type: file, path: ${events} }\ndestination:\n  type: duckdb\n  path: ${warehouse}\n  schema: aivis_l\n`,
      { websites: 0 },
    );
    try {
      const result = await t.run({ 'from-table': 'prompts_src' });
      expect(result.code).toBe(0);
      const [, complete] = readFileSync(events, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(runEventErrors(complete)).toEqual([]);
      expect(complete.inputs).toEqual([{ namespace: `duckdb://${warehouse}`, name: 'aivis_l.prompts_src' }]);
    } finally {
      await t.sandbox.close();
      rmSync(tableDir, { recursive: true, force: true });
    }
  });
});
