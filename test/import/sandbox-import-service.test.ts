/**
 * The sandbox's import model without HTTP: idempotency, the virtual-clock state machine,
 * classification, dedup, prompt limit, faults, lineage and expiry (spec 2.8, 2.9, 3, 4.7).
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson, importFingerprint } from '../../src/sandbox/imports/import-fingerprint.ts';
import { parseImportRequest, type ImportRequest } from '../../src/sandbox/imports/import-request.ts';
import { renderReceipt } from '../../src/sandbox/imports/import-receipt.ts';
import { ImportService } from '../../src/sandbox/imports/import-service.ts';
import { RETENTION_MS } from '../../src/sandbox/imports/import-timeline.ts';

const caller = { workspaceId: 'wsp_1', lineageId: 'lin_a' };
const WEB = 'web_1';
const KEY = 'key-0123456789abcdef';

function setup() {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const service = new ImportService({ now: () => now });
  const advance = (ms: number) => (now += ms);
  const receipt = (id: string) => renderReceipt(service.find(caller, WEB, id)!, now).data as Record<string, any>;
  return { service, advance, receipt };
}

/** A valid request: the three keys besides `items` as a client sends them when unused, then `body`. */
function request(body: Record<string, unknown>): ImportRequest {
  const parsed = parseImportRequest({ defaults: {}, classification: { mode: 'auto' }, validate_only: false, ...body });
  if (!parsed.request) throw new Error(JSON.stringify(parsed.details));
  return parsed.request;
}

const item = (prompt_text: string, extra: Record<string, unknown> = {}) => ({ prompt_text, ...extra });

describe('fingerprint', () => {
  it('ignores object-key order, keeps array order, and is taken after trimming and defaults', () => {
    const a = request({
      items: [item('  What is the best CRM? ', { tags: ['Discovery', 'crm'] })],
      defaults: {},
      classification: { mode: 'auto' },
      validate_only: false,
    });
    const b = request({
      validate_only: false,
      classification: { mode: 'auto' },
      items: [{ tags: ['Discovery', 'crm'], prompt_text: 'What is the best CRM?' }],
    });
    const c = request({ items: [item('What is the best CRM?', { tags: ['crm', 'Discovery'] })] });
    expect(canonicalJson({ b: 1, a: [2, 1] })).toBe('{"a":[2,1],"b":1}');
    expect(importFingerprint(WEB, a)).toBe(importFingerprint(WEB, b));
    expect(importFingerprint(WEB, a)).not.toBe(importFingerprint(WEB, c));
    expect(importFingerprint(WEB, a)).not.toBe(importFingerprint('web_2', a));
  });

  it('names every broken rule as a field detail', () => {
    const parsed = parseImportRequest({
      items: [item('hey'), item('What is the best CRM?', { colour: 'red', tags: ['crm'] })],
      defaults: {},
      classification: { mode: 'auto' },
      validate_only: false,
      mode: 'x',
    });
    expect(parsed.details).toEqual([
      { field: 'items[0].prompt_text', issue: 'must be 5 to 2000 characters after trimming (got 3)' },
      { field: 'items[1].colour', issue: 'is not an allowed field' },
      { field: 'mode', issue: 'is not an allowed field' },
      {
        field: 'items[1].tags',
        issue:
          'must hold at least one journey tag (Discovery, Comparison, Evaluation, Validation, Objections, Alternatives, Implementation) when classification is auto',
      },
    ]);
  });

  it('requires all four top-level keys (spec 2.8), naming each missing one', () => {
    expect(parseImportRequest({ items: [item('What is the best CRM?')] }).details).toEqual([
      { field: 'defaults', issue: 'is missing' },
      { field: 'classification', issue: 'is missing' },
      { field: 'validate_only', issue: 'is missing' },
    ]);
    expect(parseImportRequest({ defaults: {}, classification: { mode: 'auto' }, validate_only: true }).details).toEqual(
      [{ field: 'items', issue: 'is missing' }],
    );
  });
});

describe('operations on the virtual clock', () => {
  it('moves pending -> validating -> classifying -> committing -> succeeded and replays without re-running', () => {
    const { service, advance, receipt } = setup();
    const body = request({ items: [item('What is the best CRM for startups?', { client_id: 'a1' })] });
    const first = service.submit(caller, WEB, KEY, body);
    expect(first.kind).toBe('accepted');
    const id = first.operation.id;
    expect(id).toMatch(/^pim_/);
    expect(receipt(id).status).toBe('pending');
    const phases = [1000, 1000, 1000].map(() => (advance(1000), receipt(id).phase));
    expect(phases).toEqual(['validating', 'classifying', 'committing']);
    advance(1000);
    const done = receipt(id);
    expect(done).toMatchObject({
      status: 'succeeded',
      summary: { created: 1, skipped_duplicates: 0 },
      classifier_version: 'prompt-classifier-v1',
    });
    expect(done.items).toEqual([
      {
        index: 0,
        client_id: 'a1',
        status: 'created',
        provenance: {
          language: { source: 'derived', confidence: 0.99 },
          search_intent: { source: 'derived', confidence: 0.7 },
          tags: { source: 'derived', confidence: 0.85 },
          category: { source: 'derived', confidence: 0.7 },
          topic: { source: 'low_confidence' },
          seed_keyword: { source: 'derived', confidence: 0.9 },
        },
      },
    ]);
    expect(JSON.stringify(done)).not.toMatch(/CRM|startups/i);
    const replay = service.submit(caller, WEB, KEY, body);
    expect(replay).toMatchObject({ kind: 'replayed', operation: { id } });
    expect(service.prompts.activeCount(WEB)).toBe(1);
  });

  it('answers conflict for the same key with another body, website or validate_only, and a rotated key of the lineage replays', () => {
    const { service } = setup();
    const body = request({ items: [item('What is the best CRM?')] });
    service.submit(caller, WEB, KEY, body);
    expect(service.submit(caller, WEB, KEY, request({ items: [item('What is the best ERP?')] })).kind).toBe('conflict');
    expect(service.submit(caller, 'web_2', KEY, body).kind).toBe('conflict');
    expect(service.submit(caller, WEB, KEY, { ...body, validate_only: true }).kind).toBe('conflict');
    expect(service.submit({ workspaceId: 'wsp_1', lineageId: 'lin_a' }, WEB, KEY, body).kind).toBe('replayed');
  });

  it('hides a receipt from another lineage, expires receipt and key after 30 days, then accepts the key again', () => {
    const { service, advance } = setup();
    const body = request({ items: [item('What is the best CRM?')] });
    const { operation } = service.submit(caller, WEB, KEY, body);
    expect(service.find({ workspaceId: 'wsp_1', lineageId: 'lin_b' }, WEB, operation.id)).toBeUndefined();
    expect(service.find(caller, 'web_2', operation.id)).toBeUndefined();
    advance(RETENTION_MS - 1);
    expect(service.find(caller, WEB, operation.id)?.outcome?.status).toBe('succeeded');
    expect(service.find(caller, WEB, operation.id)?.staged).toBeUndefined();
    advance(1);
    expect(service.find(caller, WEB, operation.id)).toBeUndefined();
    const again = service.submit(caller, WEB, KEY, body);
    expect(again.kind).toBe('accepted');
    expect(again.operation.id).not.toBe(operation.id);
  });
});

describe('processing rules', () => {
  it('skips duplicates with the three codes and a breakdown that adds up, never reactivating', () => {
    const { service, advance, receipt } = setup();
    service.prompts.seed(WEB, { active: ['Best CRM tools?'], inactive: ['how to set up a crm'] });
    const { operation } = service.submit(
      caller,
      WEB,
      KEY,
      request({
        items: [
          item('best   crm TOOLS?'),
          item('How to set up a CRM'),
          item('What is the best ERP?'),
          item('what is the  best erp?'),
          item('What is the best ERP!'),
        ],
      }),
    );
    advance(10_000);
    const done = receipt(operation.id);
    expect(done.items.map((i: any) => i.code ?? i.status)).toEqual([
      'skipped_active_duplicate',
      'skipped_inactive_duplicate',
      'created',
      'skipped_request_duplicate',
      'created',
    ]);
    expect(done.summary).toEqual({
      created: 2,
      skipped_duplicates: 3,
      skipped_duplicates_breakdown: {
        skipped_request_duplicate: 1,
        skipped_active_duplicate: 1,
        skipped_inactive_duplicate: 1,
      },
    });
    expect(service.prompts.activeCount(WEB)).toBe(3);
  });

  it('fails the whole write with prompt_limit_exceeded and creates nothing; a validation reports the projection', () => {
    const { service, advance, receipt } = setup();
    service.prompts.seed(WEB, { promptLimit: 3, active: ['Best CRM tools?', 'Best ERP tools?'] });
    const items = [
      item('Best CRM tools?'),
      item('What is the best HR software?'),
      item('How to compare payroll apps?'),
    ];
    const validation = service.submit(caller, WEB, 'validation-key-0001', request({ items, validate_only: true }));
    const write = service.submit(caller, WEB, KEY, request({ items }));
    advance(10_000);
    expect(receipt(validation.operation.id)).toMatchObject({
      status: 'failed',
      error: { code: 'prompt_limit_exceeded', retryable: false },
      summary: { would_create: 0, active_count: 2, projected_active_count: 4, prompt_limit: 3 },
    });
    const failed = receipt(write.operation.id);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'prompt_limit_exceeded', retryable: false },
      summary: { created: 0, skipped_duplicates: 1 },
    });
    expect(failed.items.map((i: any) => i.status)).toEqual(['skipped', 'not_processed', 'not_processed']);
    expect(service.prompts.activeCount(WEB)).toBe(2);
  });

  it('reports would_create and capacity for a validation and creates nothing', () => {
    const { service, advance, receipt } = setup();
    const { operation } = service.submit(
      caller,
      WEB,
      KEY,
      request({ items: [item('What is the best CRM?')], validate_only: true }),
    );
    advance(10_000);
    expect(receipt(operation.id)).toMatchObject({
      status: 'succeeded',
      validate_only: true,
      summary: { would_create: 1, active_count: 0, projected_active_count: 1, prompt_limit: 5000 },
    });
    expect(receipt(operation.id).items[0].status).toBe('would_create');
    expect(service.prompts.activeCount(WEB)).toBe(0);
  });

  it('fails auto classification atomically, naming the failed items by index and client_id', () => {
    const { service, advance, receipt } = setup();
    const { operation } = service.submit(
      caller,
      WEB,
      KEY,
      request({
        items: [item('What is the best CRM?', { client_id: 'ok' }), item('zzzz qqqq xxxx', { client_id: 'bad' })],
      }),
    );
    advance(10_000);
    expect(receipt(operation.id)).toMatchObject({
      status: 'failed',
      error: { code: 'classification_failed', retryable: false },
      items: [
        { index: 0, client_id: 'ok', status: 'not_processed' },
        { index: 1, client_id: 'bad', status: 'failed', code: 'classification_failed' },
      ],
    });
    expect(service.prompts.activeCount(WEB)).toBe(0);
  });

  it('never classifies in provided_only: provided and defaulted fields only', () => {
    const { service, advance, receipt } = setup();
    const { operation } = service.submit(
      caller,
      WEB,
      KEY,
      request({
        items: [item('zzzz qqqq xxxx', { tags: [], category: null })],
        defaults: { language: 'en' },
        classification: { mode: 'provided_only' },
      }),
    );
    advance(3000);
    const done = receipt(operation.id);
    expect(done.status).toBe('succeeded');
    expect(done.classifier_version).toBeUndefined();
    expect(done.items[0].provenance).toEqual({
      language: { source: 'defaulted' },
      tags: { source: 'provided' },
      category: { source: 'provided' },
    });
  });

  it('ends switched-on faults as retryable failures that create nothing', () => {
    const { service, advance, receipt } = setup();
    service.faults.failNext('commit_conflict');
    service.faults.failNext('processing_deadline_exceeded');
    const a = service.submit(caller, WEB, 'fault-key-000000001', request({ items: [item('What is the best CRM?')] }));
    const b = service.submit(caller, WEB, 'fault-key-000000002', request({ items: [item('What is the best CRM?')] }));
    advance(10_000);
    expect(receipt(a.operation.id)).toMatchObject({
      status: 'failed',
      error: { code: 'commit_conflict', retryable: true, retry_strategy: 'new_idempotency_key' },
      items: [{ index: 0, status: 'not_processed' }],
    });
    expect(receipt(b.operation.id)).toMatchObject({ status: 'processing', phase: 'classifying' });
    advance(30 * 60 * 1000);
    expect(receipt(b.operation.id)).toMatchObject({
      status: 'failed',
      error: { code: 'processing_deadline_exceeded', retryable: true },
    });
    expect(service.prompts.activeCount(WEB)).toBe(0);
  });
});
