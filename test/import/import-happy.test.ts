/**
 * `aivis import-prompts` against the sandbox over loopback: both classification modes,
 * validate-only, and the acceptance check (2,500 lines in three atomic operations;
 * a second run creates nothing new and says so).
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { promptsCsv, startHarness, type Harness } from './import-harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.sandbox.close();
});

describe('import-prompts happy paths', () => {
  it('imports a 2,500-line CSV in three atomic operations, and a second run creates nothing new', async () => {
    const file = await h.file('prompts.csv', promptsCsv(2500));
    const first = await h.run({ file, json: true });
    expect(first.error).toBeUndefined();
    expect(first.code).toBe(0);
    const report = JSON.parse(first.out);
    expect(
      report.partitions.map((p: any) => [p.partition, p.first_line, p.last_line, p.items, p.status, p.origin]),
    ).toEqual([
      [1, 2, 1001, 1000, 'succeeded', 'this_run'],
      [2, 1002, 2001, 1000, 'succeeded', 'this_run'],
      [3, 2002, 2501, 500, 'succeeded', 'this_run'],
    ]);
    expect(new Set(report.partitions.map((p: any) => p.import_id)).size).toBe(3);
    expect(report.totals).toMatchObject({
      created: 2500,
      would_create: 0,
      skipped_request_duplicate: 0,
      skipped_active_duplicate: 0,
      skipped_inactive_duplicate: 0,
      failed: 0,
      not_processed: 0,
    });
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(3);
    // Polls waited the receipts' Retry-After: 2 each time, never less.
    expect(h.clock.slept.filter((ms) => ms === 2000).length).toBeGreaterThan(0);
    expect(h.clock.slept.every((ms) => ms >= 2000)).toBe(true);

    const second = await h.run({ file });
    expect(second.code).toBe(0);
    expect(second.out).toContain('Total this run: created 0,');
    expect(second.out).toContain(
      'Nothing new: every partition was already done by an earlier run (2500 prompts were created then).',
    );
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(3);

    const journal = JSON.parse(await readFile(report.journal, 'utf8'));
    expect(Object.values(journal.partitions).map((p: any) => p.attempts.map((a: any) => a.status))).toEqual([
      ['succeeded'],
      ['succeeded'],
      ['succeeded'],
    ]);
  });

  it('replays from the service (200, not re-executed) when the journal is gone', async () => {
    const file = await h.file('prompts.csv', promptsCsv(3));
    expect((await h.run({ file })).code).toBe(0);
    const again = await h.run({ file, journal: `${h.dir}/fresh-journal.json`, json: true });
    const report = JSON.parse(again.out);
    expect(report.partitions[0]).toMatchObject({ origin: 'replayed', counts: { created: 3 } });
    expect(report.totals.created).toBe(0);
    expect(report.earlier).toEqual({ partitions: 1, counts: expect.objectContaining({ created: 3 }) });
  });

  it('validates without creating: would_create, then the write creates them (separate operations and journals)', async () => {
    const file = await h.file('prompts.csv', promptsCsv(4));
    const validation = await h.run({ file, 'validate-only': true, json: true });
    expect(validation.code).toBe(0);
    expect(JSON.parse(validation.out).totals).toMatchObject({ would_create: 4, created: 0 });
    const write = await h.run({ file, json: true });
    expect(JSON.parse(write.out).totals).toMatchObject({ created: 4, would_create: 0 });
    const again = await h.run({ file, 'validate-only': true, journal: `${h.dir}/v2.json`, json: true });
    expect(JSON.parse(again.out).totals).toMatchObject({ would_create: 0, skipped_active_duplicate: 4 });
  });

  it('imports in provided_only with defaults from flags: the classifier is never asked', async () => {
    const file = await h.file(
      'prompts.jsonl',
      [
        '{"prompt_text":"zzzz qqqq xxxx","client_id":"a","tags":[]}',
        '',
        '{"prompt_text":"yyyy wwww vvvv","language":"de"}',
      ].join('\n'),
    );
    const auto = await h.run({
      file,
      journal: `${h.dir}/auto.json`,
      'validate-only': true,
      'defaults-tags': 'Discovery',
    });
    expect(auto.code).toBe(2); // auto refuses an empty tag list before sending
    const result = await h.run({ file, classification: 'provided_only', 'defaults-language': 'en', json: true });
    expect(result.error).toBeUndefined();
    expect(JSON.parse(result.out).totals).toMatchObject({ created: 2 });
  });
});
