/**
 * What a journal may stand in the way of: only operations that may have created prompts. A
 * run the service refused (403) or whose operations all failed leaves a journal that never
 * blocks a later run, and a run for another website shows its own outcome, the service's real
 * error included, never a message about the first website's journal.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { promptsCsv, startHarness, type Harness } from './import-harness.ts';

let h: Harness;
let other: string;
beforeEach(async () => {
  h = await startHarness();
  other = h.sandbox.addWebsites(1)[0]!;
});
afterEach(async () => {
  await h.sandbox.close();
});

/** The config's key file holds `key` from now on. */
const useKey = (key: string) => writeFile(path.join(h.dir, 'api-key'), key);

/** The exact error a key without prompt-import access gets, its request id as `req_N`. */
const FORBIDDEN =
  'access forbidden (403 forbidden, request_id req_N): the API says "This API key lacks the prompts_write scope.": the key may not be V2-eligible for prompt imports (it needs an owner-issued key with the prompts_write scope in a V2 integration lineage), or V2 may not be enabled for this workspace; ask a workspace owner';

const withoutRequestId = (message: string | undefined) => message?.replace(/request_id req_\d+/, 'request_id req_N');

describe('the journal never hides a later run', () => {
  it('a run refused with 403 leaves a journal that does not block the same --journal for another website: that run shows its own 403', async () => {
    const file = await h.file('p.csv', promptsCsv(3));
    const journal = path.join(h.dir, 'shared-journal.json');
    await useKey(h.sandbox.keys.readOnly);
    const first = await h.run({ file, journal });
    expect([first.code, withoutRequestId(first.error)]).toEqual([1, FORBIDDEN]);
    const recorded = JSON.parse(await readFile(journal, 'utf8'));
    expect(recorded.partitions['0'].attempts.map((a: any) => [a.status, a.error])).toEqual([
      ['refused', { code: 'forbidden', retryable: false }],
    ]);

    const second = await h.run({ file, journal, website: other });
    expect([second.code, withoutRequestId(second.error)]).toEqual([1, FORBIDDEN]);
    // With a key that may import, the same journal serves the other website's import.
    await useKey(h.sandbox.apiKey);
    const third = await h.run({ file, journal, website: other, json: true });
    expect(third.code).toBe(0);
    expect(JSON.parse(third.out).totals).toMatchObject({ created: 3 });
    expect(JSON.parse(await readFile(journal, 'utf8')).website_id).toBe(other);
  });

  it('a refused run of the same website sends again with a new key, not counted as a failed operation', async () => {
    const file = await h.file('p.csv', promptsCsv(2));
    await useKey(h.sandbox.keys.readOnly);
    expect((await h.run({ file })).code).toBe(1);
    await useKey(h.sandbox.apiKey);
    const rerun = await h.run({ file, json: true });
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.out).partitions).toMatchObject([{ origin: 'this_run', counts: { created: 2 } }]);
    const attempts = JSON.parse(await readFile(h.options(file).journal, 'utf8')).partitions['0'].attempts;
    expect(attempts.map((a: any) => a.status)).toEqual(['refused', 'succeeded']);
    expect(attempts[0].idempotency_key).not.toBe(attempts[1].idempotency_key);
  });

  it('the default journal is per website: a file imported into one website, then refused for another, shows the real 403', async () => {
    const file = await h.file('p.csv', promptsCsv(2));
    expect((await h.run({ file })).code).toBe(0);
    await useKey(h.sandbox.keys.readOnly);
    const second = await h.run({ file, website: other });
    expect([second.code, withoutRequestId(second.error)]).toEqual([1, FORBIDDEN]);
    expect(path.basename(h.options(file).journal)).toBe(`p.csv.${h.websiteId}.import-journal.json`);
    expect(JSON.parse(await readFile(`${file}.${other}.import-journal.json`, 'utf8')).website_id).toBe(other);
  });

  it('still refuses a --journal holding another website operations that may have created prompts', async () => {
    const file = await h.file('p.csv', promptsCsv(2));
    const journal = path.join(h.dir, 'shared-journal.json');
    expect((await h.run({ file, journal })).code).toBe(0);
    const second = await h.run({ file, journal, website: other });
    expect([second.code, second.error]).toEqual([
      2,
      `journal ${journal} belongs to another import (website_id "${h.websiteId}", this run "${other}"); pass another --journal path`,
    ]);
  });

  it('after classification_failed (nothing created), --classification provided_only runs with the same journal', async () => {
    const file = await h.file(
      'c.csv',
      'client_id,prompt_text,language\nc1,What is the best CRM?,en\nc2,zzzz qqqq xxxx,en\n',
    );
    expect((await h.run({ file })).code).toBe(1);
    const rerun = await h.run({ file, classification: 'provided_only', json: true });
    expect([rerun.code, rerun.error]).toEqual([0, undefined]);
    expect(JSON.parse(rerun.out).totals).toMatchObject({ created: 2 });
  });

  it('after classification_failed, the fixed file is a new operation under the same journal, not a 409', async () => {
    const file = await h.file('c.csv', 'client_id,prompt_text\nc1,What is the best CRM?\nc2,zzzz qqqq xxxx\n');
    expect((await h.run({ file })).code).toBe(1);
    await h.file('c.csv', 'client_id,prompt_text\nc1,What is the best CRM?\nc2,What is the best ERP?\n');
    const rerun = await h.run({ file, json: true });
    expect([rerun.code, rerun.error]).toEqual([0, undefined]);
    expect(JSON.parse(rerun.out).totals).toMatchObject({ created: 2 });
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(2);
  });
});
