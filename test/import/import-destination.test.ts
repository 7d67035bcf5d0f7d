/**
 * With a destination in the config, receipts land in `prompt_imports` and
 * `prompt_import_items` of a real PostgreSQL: one row per operation, one per item with its
 * input line, no prompt text anywhere, and a rerun adds no rows.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import type pg from 'pg';
import { promptsCsv, startHarnessWithPostgres, type Harness } from './import-harness.ts';

let h: Harness;
let db: pg.Client;
let schema: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ h, db, schema, close } = await startHarnessWithPostgres(inject('postgresUrl')));
});
afterAll(() => close());

describe('receipts in the destination', () => {
  it('loads one row per operation and per item, mapped to input lines, without prompt text', async () => {
    const file = await h.file('prompts.csv', promptsCsv(1200));
    const first = await h.run({ file, json: true });
    expect(first.code).toBe(0);
    const ids = JSON.parse(first.out).partitions.map((p: any) => p.import_id);

    const imports = await db.query(
      `SELECT id, website_id, status, validate_only, classification_mode, created, skipped_active_duplicate, partition_index, first_line, last_line FROM ${schema}.prompt_imports ORDER BY partition_index`,
    );
    expect(imports.rows).toEqual([
      {
        id: ids[0],
        website_id: h.websiteId,
        status: 'succeeded',
        validate_only: false,
        classification_mode: 'auto',
        created: '1000',
        skipped_active_duplicate: '0',
        partition_index: '0',
        first_line: '2',
        last_line: '1001',
      },
      {
        id: ids[1],
        website_id: h.websiteId,
        status: 'succeeded',
        validate_only: false,
        classification_mode: 'auto',
        created: '200',
        skipped_active_duplicate: '0',
        partition_index: '1',
        first_line: '1002',
        last_line: '1201',
      },
    ]);
    const items = await db.query(
      `SELECT import_id, item_index, client_id, input_line, status, provenance FROM ${schema}.prompt_import_items ORDER BY input_line`,
    );
    expect(items.rows).toHaveLength(1200);
    expect(items.rows[1100]).toMatchObject({
      import_id: ids[1],
      item_index: '100',
      client_id: 'p1100',
      input_line: '1102',
      status: 'created',
    });
    expect(items.rows[0].provenance).toMatchObject({ language: { source: 'derived' } });
    const leaks = await db.query(
      `SELECT (SELECT count(*) FROM ${schema}.prompt_imports WHERE _raw::text ILIKE '%best CRM%')::int + (SELECT count(*) FROM ${schema}.prompt_import_items WHERE _raw::text ILIKE '%best CRM%')::int AS n`,
    );
    expect(leaks.rows[0].n).toBe(0);

    expect((await h.run({ file })).code).toBe(0);
    const counts = await db.query(
      `SELECT (SELECT count(*) FROM ${schema}.prompt_imports)::int AS imports, (SELECT count(*) FROM ${schema}.prompt_import_items)::int AS items`,
    );
    expect(counts.rows[0]).toEqual({ imports: 2, items: 1200 });
  });

  it('stamps the rows with the workspace whose key sent the import (--workspace of a sources: config)', async () => {
    const single = await readFile(h.config, 'utf8');
    // source: -> sources: { acme: ... }, the same keys one level deeper.
    const workspaces = single.replace(
      /^source:\n((?: {2}.*\n)+)/m,
      (_all, keys: string) => `sources:\n  acme:\n${keys.replace(/^(?=.)/gm, '  ')}`,
    );
    expect(workspaces).toContain('sources:\n  acme:\n    base_url: ');
    await writeFile(h.config, workspaces);
    try {
      const file = await h.file('acme.csv', promptsCsv(3));
      const run = await h.run({ file, json: true, workspace: 'acme' });
      expect(run.error).toBeUndefined();
      expect(run.code).toBe(0);
      const ids = JSON.parse(run.out).partitions.map((p: any) => p.import_id);
      const stamped = await db.query(
        `SELECT DISTINCT _workspace FROM ${schema}.prompt_imports WHERE id = ANY($1) UNION SELECT DISTINCT _workspace FROM ${schema}.prompt_import_items WHERE import_id = ANY($1)`,
        [ids],
      );
      expect(stamped.rows).toEqual([{ _workspace: 'acme' }]);
    } finally {
      await writeFile(h.config, single);
    }
  });
});
