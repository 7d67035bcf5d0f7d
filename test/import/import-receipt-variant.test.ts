/**
 * Receipts from a server that places what the spec does not show differently (the sandbox's
 * `receipts_with_extra_fields` variant): provenance as a list under each item's
 * `classification`, the classifier version in `classifier`, capacity counts in `capacity`,
 * extra item fields, and an operation error code the spec does not list. The import still
 * decodes every receipt, acts on the documented parts, and keeps the rest in `_raw`.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type pg from 'pg';
import { promptsCsv, startHarnessWithPostgres, type Harness } from './import-harness.ts';

let h: Harness;
let db: pg.Client;
let schema: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ h, db, schema, close } = await startHarnessWithPostgres(inject('postgresUrl'), {
    variants: ['receipts_with_extra_fields'],
  }));
});
afterAll(() => close());

it('validates, then imports through an unlisted retryable error code (new key), and keeps every unshown part in _raw', async () => {
  const file = await h.file('prompts.csv', promptsCsv(3));
  const validation = await h.run({ file, 'validate-only': true, json: true });
  expect(validation.code).toBe(0);
  expect(JSON.parse(validation.out).totals).toMatchObject({ would_create: 3 });

  await h.admin('PUT', '/_sandbox/imports/faults', { code: 'quota_window_exhausted', count: 1 });
  const write = await h.run({ file, json: true });
  expect(write.code).toBe(0);
  const report = JSON.parse(write.out);
  expect(report.partitions).toMatchObject([{ status: 'succeeded', attempts: 2, counts: { created: 3 } }]);

  const imports = await db.query(
    `SELECT validate_only, status, created, would_create, _raw FROM ${schema}.prompt_imports ORDER BY validate_only DESC`,
  );
  expect(imports.rows.map((r) => [r.validate_only, r.status, r.created, r.would_create])).toEqual([
    [true, 'succeeded', '0', '3'],
    [false, 'succeeded', '3', '0'],
  ]);
  expect(imports.rows[0]._raw).toMatchObject({
    classifier: { version: 'prompt-classifier-v1' },
    capacity: { would_create: 3, active_count: 0, projected_active_count: 3, prompt_limit: 5000 },
  });
  const items = await db.query(
    `SELECT status, provenance, _raw FROM ${schema}.prompt_import_items WHERE status = 'created' ORDER BY item_index`,
  );
  expect(items.rows).toHaveLength(3);
  expect(items.rows[0].provenance).toBeNull();
  expect(items.rows[0]._raw).toMatchObject({
    status: 'created',
    warnings: [],
    classification: {
      provenance: expect.arrayContaining([{ field: 'language', source: 'derived', confidence: expect.any(Number) }]),
    },
  });
});

it('explains a prompt-limit failure from capacity counts placed outside the summary', async () => {
  await h.admin('PUT', `/_sandbox/websites/${h.websiteId}/prompts`, { prompt_limit: 4 });
  const result = await h.run({ file: await h.file('more.csv', promptsCsv(2, 10)), json: true });
  expect(result.code).toBe(1);
  expect(JSON.parse(result.out).diagnostics).toEqual([
    'partition 1 failed with prompt_limit_exceeded (not retryable); the run stopped before the next partition:',
    'active prompts 3, projected 5, prompt_limit 4: free capacity, then validate and import again',
    '2 other items were not processed (the operation is atomic: nothing was created)',
  ]);
});
