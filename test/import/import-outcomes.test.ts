/**
 * What the service decides, as the user sees it: duplicate codes with a breakdown that adds
 * up, the prompt limit (nothing created, exit 1, capacity explained), classification
 * failures mapped back to input lines and client_ids, and the 5 MiB partition boundary with
 * multibyte text measured in bytes of the exact body.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IMPORT_LIMITS } from '../../schemas/import-limits.ts';
import { partitionInput } from '../../src/import/partitions.ts';
import { promptsCsv, startHarness, type Harness } from './import-harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.sandbox.close();
});

describe('service outcomes', () => {
  it('skips duplicates by code: in the request, active and inactive; never reactivates', async () => {
    await h.admin('PUT', `/_sandbox/websites/${h.websiteId}/prompts`, {
      active: ['What is the best CRM for team number 0?'],
      inactive: ['What is the best CRM for team number 1?'],
    });
    const csv = `${promptsCsv(4)}p9,"  what is the BEST crm for team   number 3?"\n`;
    const result = await h.run({ file: await h.file('d.csv', csv) });
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      'Total this run: created 2, skipped 3 (request duplicate 1, active duplicate 1, inactive duplicate 1), failed 0, not processed 0',
    );
    const again = await h.run({
      file: await h.file('d2.csv', 'prompt_text\nWhat is the best CRM for team number 1?\n'),
      json: true,
    });
    expect(JSON.parse(again.out).totals).toMatchObject({ created: 0, skipped_inactive_duplicate: 1 });
  });

  it('stops at the prompt limit: nothing created, exit 1, capacity and items by line', async () => {
    await h.admin('PUT', `/_sandbox/websites/${h.websiteId}/prompts`, {
      prompt_limit: 3,
      active: ['What is the best CRM for team number 0?'],
    });
    const result = await h.run({ file: await h.file('l.csv', promptsCsv(4)), json: true });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out);
    expect(report.status).toBe('failed');
    expect(report.partitions).toMatchObject([
      {
        status: 'failed',
        error_code: 'prompt_limit_exceeded',
        counts: { created: 0, skipped_active_duplicate: 1, not_processed: 3 },
      },
    ]);
    expect(report.diagnostics).toEqual([
      'partition 1 failed with prompt_limit_exceeded (not retryable); the run stopped before the next partition:',
      'active prompts 1, projected 4, prompt_limit 3: free capacity, then validate and import again',
      '3 other items were not processed (the operation is atomic: nothing was created)',
    ]);
    const check = (await h.admin('PUT', `/_sandbox/websites/${h.websiteId}/prompts`, {})) as {
      data: { active_count: number };
    };
    expect(check.data.active_count).toBe(1);
    // Capacity freed, the same command again: a new operation (a new key), not a replay of the failure.
    await h.admin('PUT', `/_sandbox/websites/${h.websiteId}/prompts`, { prompt_limit: 10 });
    const rerun = await h.run({ file: await h.file('l.csv', promptsCsv(4)), json: true });
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.out).totals).toMatchObject({ created: 3, skipped_active_duplicate: 1 });
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(2);
  });

  it('maps classification failures to input lines and client_ids, names what each did not give and how to fix it, and re-reports them on a rerun', async () => {
    const csv =
      'client_id,prompt_text,language,tags\nc1,What is the best CRM?,,\nc2,zzzz qqqq xxxx,en,\nc3,What is the best ERP?,,\n,qqqq zzzz wwww,,Discovery\n';
    const file = await h.file('c.csv', csv);
    const result = await h.run({ file });
    expect(result.code).toBe(1);
    const diagnostics = [
      '  partition 1 failed with classification_failed (not retryable); the run stopped before the next partition:',
      '  line 3 (client_id c2): classification_failed (not given: search_intent, journey tag)',
      '  line 5: classification_failed (not given: language, search_intent)',
      '  2 other items were not processed (the operation is atomic: nothing was created)',
      '  to fix: add the missing language, search_intent or a standard journey tag (Discovery, Comparison, Evaluation, Validation, Objections, Alternatives, Implementation) to each failed item, in the input or with --defaults-language, --defaults-intent or --defaults-tags, or use --classification provided_only (nothing is classified; every item then needs a language); then run the same command again (the failed operation created nothing)',
    ];
    expect(result.out.trimEnd().split('\n').slice(-diagnostics.length)).toEqual(diagnostics);
    const rerun = await h.run({ file });
    expect(rerun.code).toBe(1);
    expect(rerun.out.trimEnd().split('\n').slice(-diagnostics.length)).toEqual(diagnostics);
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(1);
  });

  it('names what a failed item did not give after the defaults: a default language or tags count as given', async () => {
    const file = await h.file('d.csv', 'client_id,prompt_text\nc1,zzzz qqqq xxxx\n');
    const result = await h.run({ file, 'defaults-language': 'en', 'defaults-tags': 'Discovery', json: true });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out).diagnostics.slice(1, 2)).toEqual([
      'line 2 (client_id c1): classification_failed (not given: search_intent)',
    ]);
  });

  it('cuts partitions at 5 MiB of body bytes with multibyte text, each within the limit and the server accepting it', async () => {
    const text = '漢字かな'.repeat(500); // 2,000 characters, 6,000 UTF-8 bytes
    const lines = Array.from({ length: 1000 }, (_, i) =>
      JSON.stringify({ prompt_text: `${i} ${text}`.slice(0, 2000), client_id: `m${i}` }),
    );
    const file = await h.file('m.jsonl', lines.join('\n'));
    const options = h.options(file, { mode: 'provided_only', defaults: { language: 'ja' } });
    const partitions = [];
    for await (const p of partitionInput(options)) partitions.push(p);
    const sizes = partitions.map((p) => p.body.length);
    expect(partitions.map((p) => p.lines.length).reduce((a, b) => a + b)).toBe(1000);
    expect(sizes.every((size) => size <= IMPORT_LIMITS.maxBodyBytes)).toBe(true);
    // The cut is tight: the next item would have pushed partition 1 over 5 MiB.
    const nextItem = Buffer.byteLength(lines[partitions[0]!.lines.length]!) + 1;
    expect(sizes[0]! + nextItem).toBeGreaterThan(IMPORT_LIMITS.maxBodyBytes);
    expect(partitions.length).toBe(2);
    expect(Buffer.from(partitions[0]!.body).toString('utf8')).toMatch(/^\{"items":\[\{"prompt_text":"0 漢字/);

    const result = await h.run({ file, classification: 'provided_only', 'defaults-language': 'ja', json: true });
    expect(result.error).toBeUndefined();
    const report = JSON.parse(result.out);
    expect(report.partitions.map((p: any) => [p.items, p.bytes])).toEqual(
      partitions.map((p) => [p.lines.length, p.body.length]),
    );
    expect(report.totals.created).toBe(1000);
    const journal = JSON.parse(await readFile(report.journal, 'utf8'));
    expect(journal.partitions['0'].bytes).toBe(sizes[0]);
  });
});
