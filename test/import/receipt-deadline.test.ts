/**
 * Receipt polling ends: an operation the service never finishes (still running past the
 * spec's 30-minute processing deadline) stops the import at the deadline plus a 5-minute
 * margin, exit 1, with the journal keeping the receipt for a later run. A real API client on
 * virtual time against a loopback server that accepts the partition and then keeps answering
 * `processing`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AivisError } from '../../src/errors.ts';
import { ImportJournal } from '../../src/import/import-journal.ts';
import { defaultJournalPath, type ImportOptions } from '../../src/import/import-options.ts';
import { importPartition, type PartitionDeps } from '../../src/import/partition-import.ts';
import { partitionInput, type Partition } from '../../src/import/partitions.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { clientFixture, gaps, type ClientFixture } from '../client/support/client-fixture.ts';
import { json } from '../client/support/scripted-server.ts';
import { promptsCsv } from './import-harness.ts';

const ACCEPTED = Date.parse('2026-03-01T00:00:00Z');
const RECEIPT_PATH = '/public/v2/websites/web_1/prompt-imports/pim_stuck1';

/** The receipt of an operation that never leaves its committing phase. */
function receipt(status: 'pending' | 'processing') {
  return {
    data: {
      id: 'pim_stuck1',
      object: 'prompt_import',
      website_id: 'web_1',
      validate_only: false,
      classification_mode: 'provided_only',
      created_at: '2026-03-01T00:00:00.000Z',
      expires_at: '2026-03-31T00:00:00.000Z',
      status,
      ...(status === 'processing' ? { phase: 'committing', started_at: '2026-03-01T00:00:01.000Z' } : {}),
    },
    meta: { request_id: 'req_stuck' },
  };
}
const accepted = json(202, receipt('pending'), { location: RECEIPT_PATH, 'retry-after': '60' });
const stillRunning = json(202, receipt('processing'), { 'retry-after': '60' });

let dir: string;
let fixture: ClientFixture;
let options: ImportOptions & { journal: string };
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-deadline-'));
  fixture = await clientFixture({ fallback: stillRunning, client: { requestsPerMinute: 100 } });
  const file = path.join(dir, 'prompts.csv');
  writeFileSync(file, promptsCsv(3));
  options = {
    websiteId: 'web_1',
    file,
    validateOnly: false,
    mode: 'provided_only',
    defaults: { language: 'en' },
    journal: defaultJournalPath(file, 'web_1', false),
  };
});
afterEach(async () => {
  await fixture.close();
  rmSync(dir, { recursive: true, force: true });
});

async function onlyPartition(): Promise<Partition> {
  const partitions: Partition[] = [];
  for await (const partition of partitionInput(options)) partitions.push(partition);
  expect(partitions).toHaveLength(1);
  return partitions[0]!;
}

async function deps(): Promise<PartitionDeps> {
  const journal = await ImportJournal.open(
    options.journal,
    { website_id: 'web_1', validate_only: false, classification: 'provided_only' },
    new Date(fixture.clock.now()),
  );
  return {
    http: fixture.client,
    journal,
    clock: fixture.clock,
    logger: silentLogger,
    websiteId: 'web_1',
    maxAttempts: 5,
    keySalt: '',
  };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

it('stops polling 35 minutes after the operation was accepted, naming it and the deadline; the journal keeps the receipt', async () => {
  const { clock, server } = fixture;
  expect(clock.now()).toBe(ACCEPTED);
  server.script(accepted);
  const partition = await onlyPartition();
  const partitionDeps = await deps();

  const error = await failure(importPartition(partition, partitionDeps));

  expect(error).toBeInstanceOf(AivisError);
  expect((error as AivisError).exitCode).toBe(1);
  expect((error as AivisError).message).toBe(
    "import pim_stuck1 is still processing 35 minutes after it was accepted, past the service's 30-minute processing deadline; " +
      'polling stopped (request_id req_stuck). The journal keeps its receipt: run the same command later to poll it again',
  );
  // The POST, then one poll a minute as Retry-After asks, up to 35 minutes after acceptance.
  expect(server.received.map((r) => r.method)).toEqual(['POST', ...Array(36).fill('GET')]);
  expect(new Set(gaps(server).slice(1))).toEqual(new Set([60_000]));
  expect(clock.now() - ACCEPTED).toBe(35 * 60_000);
  expect(partitionDeps.journal.partition(0)?.attempts).toEqual([
    {
      idempotency_key: expect.stringMatching(/^aivis-/),
      status: 'accepted',
      receipt_url: RECEIPT_PATH,
      import_id: 'pim_stuck1',
      updated_at: '2026-03-01T00:00:00.000Z',
    },
  ]);
});

it('a later run resumes that receipt from the journal, polls it once more, and stops again: the deadline counts from the acceptance recorded there', async () => {
  const { clock, server } = fixture;
  server.script(accepted);
  const partition = await onlyPartition();
  await failure(importPartition(partition, await deps()));
  const before = server.received.length;
  clock.advance(60 * 60_000);

  const error = await failure(importPartition(partition, await deps()));

  expect((error as AivisError).message).toContain(
    'import pim_stuck1 is still processing 95 minutes after it was accepted',
  );
  expect(server.received.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual([`GET ${RECEIPT_PATH}`]);
});
