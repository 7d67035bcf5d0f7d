/**
 * A run killed at the two dangerous moments resumes without importing twice, a changed file
 * under the same journal is a hard stop (409), and 429/503/lost responses during POST and
 * polling are retried with the same key and bytes. "Killed" is a wrapper around the real
 * client that lets the request reach the sandbox and then throws before the journal records
 * the answer, which is exactly what a process kill at that point leaves behind.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient, RequestOptions } from '../../src/client/api-client.ts';
import { runImport } from '../../src/import/import-run.ts';
import type { ImportHttp } from '../../src/import/receipt-client.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { promptsCsv, startHarness, type Harness } from './import-harness.ts';

let h: Harness;
let client: ApiClient;
beforeEach(async () => {
  h = await startHarness();
  client = h.client();
});
afterEach(async () => {
  await client.close();
  await h.sandbox.close();
});

class Killed extends Error {}

/** Passes requests through; the first one matching `when` reaches the server, then the process "dies". */
function killAfter(when: (options: RequestOptions) => boolean, seen: unknown[] = []): ImportHttp {
  let killed = false;
  return {
    async request(options) {
      const response = await client.request(options);
      if (!killed && when(options)) {
        killed = true;
        seen.push(response.body);
        throw new Killed('process killed');
      }
      return response;
    },
  };
}

const run = (file: string, http: ImportHttp = client, extra: Parameters<typeof h.options>[1] = {}) =>
  runImport(h.options(file, extra), {
    http,
    clock: h.clock,
    logger: silentLogger,
    limits: { maxItems: 2, maxBodyBytes: 5 * 1024 * 1024 },
  });

describe('resume after a kill', () => {
  it('between the POST and the journal update: the rerun replays the same key, one operation per partition', async () => {
    const file = await h.file('p.csv', promptsCsv(3));
    const answers: any[] = [];
    await expect(
      run(
        file,
        killAfter((o) => o.method === 'POST', answers),
      ),
    ).rejects.toBeInstanceOf(Killed);
    const journal = JSON.parse(await readFile(h.options(file).journal, 'utf8'));
    expect(journal.partitions['0'].attempts.map((a: any) => a.status)).toEqual(['sending']);

    const report = await run(file);
    expect(report.partitions.map((p) => [p.import_id, p.counts.created])).toEqual([
      [answers[0].data.id, 2],
      [expect.stringMatching(/^pim_/), 1],
    ]);
    expect(report.totals.created! + report.earlier.counts.created!).toBe(3);
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(3); // two sends of partition 1, one of partition 2
  });

  it('between the 202 and the terminal receipt: the rerun polls the recorded receipt, no second POST', async () => {
    const file = await h.file('p.csv', promptsCsv(2));
    await expect(
      run(
        file,
        killAfter((o) => o.method === 'GET'),
      ),
    ).rejects.toBeInstanceOf(Killed);
    const journal = JSON.parse(await readFile(h.options(file).journal, 'utf8'));
    const [attempt] = journal.partitions['0'].attempts;
    expect(attempt).toMatchObject({
      status: 'accepted',
      receipt_url: `/public/v2/websites/${h.websiteId}/prompt-imports/${attempt.import_id}`,
    });

    const report = await run(file);
    expect(report.partitions).toMatchObject([
      { import_id: attempt.import_id, origin: 'this_run', counts: { created: 2 } },
    ]);
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(1);
  });

  it('stops with 409 when the file changed under the same journal, and sends nothing more', async () => {
    const file = await h.file('p.csv', promptsCsv(4));
    expect((await run(file)).status).toBe('succeeded');
    await h.file('p.csv', promptsCsv(4).replace('team number 0?', 'team number zero?'));
    const error = await run(file).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(
      /^partition 1 \(lines 2-3\): the service refused the import with 409 idempotency_conflict \(request_id req_\d+\): the input changed since the journal .*p\.csv\.web_[\w-]+\.import-journal\.json recorded this partition/,
    );
    expect((error as Error).message).toContain('pass a new --journal path');
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(3); // 2 partitions, then the refused resend
  });
});

describe('transient failures', () => {
  it('retries 429 and 503 on the POST with the same key and bytes; one operation', async () => {
    const file = await h.file('p.csv', promptsCsv(2));
    h.sandbox.faults.set({ kind: 'rate_limited', count: 1, routes: ['prompts.import'], retryAfter: 7 });
    const first = await run(file);
    h.sandbox.faults.set({ kind: 'unavailable', count: 2, routes: ['prompts.import'] });
    const second = await run(await h.file('q.csv', promptsCsv(2, 100)));
    expect([first.status, second.status]).toEqual(['succeeded', 'succeeded']);
    expect(h.clock.slept).toContain(7000);
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(5);
    expect(first.totals.created! + second.totals.created!).toBe(4);
  });

  it('a POST whose answer is lost after acceptance is resent and replayed, not run twice', async () => {
    const file = await h.file('p.csv', promptsCsv(2));
    h.sandbox.faults.set({ kind: 'truncated_body', count: 1, routes: ['prompts.import'] });
    const report = await run(file);
    expect(report.partitions).toMatchObject([
      { status: 'succeeded', attempts: 1, counts: { created: 2, skipped_active_duplicate: 0 } },
    ]);
    expect(h.sandbox.stats.byRoute['prompts.import']).toBe(2);
  });

  it('retries 429 and 503 while polling the receipt', async () => {
    const file = await h.file('p.csv', promptsCsv(2));
    h.sandbox.faults.set({ kind: 'rate_limited', count: 2, routes: ['prompt-imports.get'], retryAfter: 5 });
    const first = await run(file);
    h.sandbox.faults.set({ kind: 'unavailable', count: 2, routes: ['prompt-imports.get'], retryAfter: 3 });
    const second = await run(await h.file('q.csv', promptsCsv(2, 100)));
    expect([first.totals.created, second.totals.created]).toEqual([2, 2]);
    expect(h.clock.slept.filter((ms) => ms === 5000)).toHaveLength(2);
    expect(h.clock.slept.filter((ms) => ms === 3000)).toHaveLength(2);
  });

  it('a retryable failed receipt starts a new operation with a new key, recorded in the journal first', async () => {
    const file = await h.file('p.csv', promptsCsv(2));
    await h.admin('PUT', '/_sandbox/imports/faults', { code: 'commit_conflict', count: 1 });
    const report = await run(file);
    expect(report.partitions).toMatchObject([{ status: 'succeeded', attempts: 2, counts: { created: 2 } }]);
    const journal = JSON.parse(await readFile(h.options(file).journal, 'utf8'));
    const attempts = journal.partitions['0'].attempts;
    expect(attempts.map((a: any) => [a.status, a.error?.code])).toEqual([
      ['failed', 'commit_conflict'],
      ['succeeded', undefined],
    ]);
    expect(attempts[0].idempotency_key).not.toBe(attempts[1].idempotency_key);
    expect(attempts[0].import_id).not.toBe(attempts[1].import_id);
  });
});
