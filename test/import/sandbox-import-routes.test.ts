/**
 * The sandbox's write side over HTTP (spec 4.7, 4.8, 5): status codes, headers, replay,
 * conflicts, refusals before any operation, key eligibility, lineage and expiry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';

let sandbox: Sandbox;
let website: string;
let base: string;
beforeEach(async () => {
  sandbox = await startSandbox({ websites: 1 });
  website = sandbox.addWebsites(1)[0]!;
  base = `${sandbox.baseUrl}/public/v2/websites/${website}`;
});
afterEach(async () => {
  await sandbox.close();
});

const body = (text = 'What is the best CRM for startups?') =>
  JSON.stringify({
    items: [{ prompt_text: text, client_id: 'c1' }],
    defaults: {},
    classification: { mode: 'auto' },
    validate_only: false,
  });

async function post(options: { key?: string; apiKey?: string; payload?: string | Buffer; contentType?: string } = {}) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.apiKey ?? sandbox.apiKey}`,
    'content-type': options.contentType ?? 'application/json; charset=utf-8',
  };
  if (options.key !== '') headers['idempotency-key'] = options.key ?? 'test-key-0123456789';
  const response = await fetch(`${base}/prompts:import`, { method: 'POST', headers, body: options.payload ?? body() });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

async function get(location: string, apiKey = sandbox.apiKey) {
  const response = await fetch(`${sandbox.baseUrl}${location}`, { headers: { authorization: `Bearer ${apiKey}` } });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

const advanceSeconds = (s: number) => sandbox.clock.advance({ minutes: s / 60 });

describe('POST prompts:import and GET receipt', () => {
  it('accepts with 202, Location and no-store, polls with Retry-After: 2, and replays the terminal receipt with 200', async () => {
    const accepted = await post();
    expect(accepted.status).toBe(202);
    const id = accepted.json.data.id;
    const location = `/public/v2/websites/${website}/prompt-imports/${id}`;
    expect(accepted.headers.get('location')).toBe(location);
    expect(accepted.headers.get('cache-control')).toBe('private, no-store');
    expect(accepted.json.data).toMatchObject({
      id,
      object: 'prompt_import',
      website_id: website,
      status: 'pending',
      validate_only: false,
    });
    expect(accepted.json.meta.request_id).toMatch(/^req_/);
    const pending = await get(location);
    expect([pending.status, pending.headers.get('retry-after'), pending.json.data.status]).toEqual([
      200,
      '2',
      'pending',
    ]);
    advanceSeconds(2.5); // mid-phase, so the few real milliseconds the sandbox adds cannot cross a boundary
    const processing = await get(location);
    expect(processing.json.data).toMatchObject({ status: 'processing', phase: 'classifying' });
    expect(processing.headers.get('retry-after')).toBe('2');
    advanceSeconds(3);
    const done = await get(location);
    expect(done.json.data).toMatchObject({
      status: 'succeeded',
      summary: { created: 1 },
      items: [{ index: 0, client_id: 'c1', status: 'created' }],
    });
    expect(done.headers.get('retry-after')).toBeNull();
    expect(JSON.stringify(done.json)).not.toMatch(/CRM|startups/);
    const replay = await post();
    expect([replay.status, replay.headers.get('location'), replay.json.data.id, replay.json.data.status]).toEqual([
      200,
      location,
      id,
      'succeeded',
    ]);
  });

  it('answers 409 for the same key with a different body or validate_only, and creates no second operation', async () => {
    await post();
    const conflict = await post({ payload: body('What is the best ERP for startups?') });
    expect(conflict.status).toBe(409);
    expect(conflict.json.error.code).toBe('idempotency_conflict');
    const validation = await post({ payload: body().replace('"validate_only":false', '"validate_only":true') });
    expect(validation.status).toBe(409);
    // Same request with reordered object keys and untrimmed text is the same request.
    const same = await post({
      payload: JSON.stringify({
        validate_only: false,
        classification: { mode: 'auto' },
        defaults: {},
        items: [{ client_id: 'c1', prompt_text: '  What is the best CRM for startups? ' }],
      }),
    });
    expect(same.status).toBe(202);
  });

  it('refuses bad media type, body size, key and body before any operation exists', async () => {
    const cases = [
      [await post({ contentType: 'text/plain' }), 415, 'unsupported_media_type'],
      [await post({ payload: Buffer.alloc(5 * 1024 * 1024 + 1, 32) }), 413, 'payload_too_large'],
      [await post({ key: 'short' }), 400, 'invalid_request'],
      [await post({ key: '' }), 400, 'invalid_request'],
      [await post({ key: 'key with spaces 0123456789' }), 400, 'invalid_request'],
      [await post({ payload: '{"items": [' }), 400, 'invalid_request'],
      [
        await post({
          payload: JSON.stringify({
            items: [{ prompt_text: 'hey', colour: 'red' }],
            defaults: {},
            classification: { mode: 'auto' },
            validate_only: false,
            mode: 'x',
          }),
        }),
        400,
        'invalid_request',
      ],
    ] as const;
    expect(cases.map(([r]) => [r.status, r.json.error.code])).toEqual(cases.map(([, s, c]) => [s, c]));
    expect(cases[6]![0].json.error.details).toEqual([
      { field: 'items[0].prompt_text', issue: 'must be 5 to 2000 characters after trimming (got 3)' },
      { field: 'items[0].colour', issue: 'is not an allowed field' },
      { field: 'mode', issue: 'is not an allowed field' },
    ]);
    // The refused attempts left no operation behind: the key is still new.
    expect((await post()).json.data.status).toBe('pending');
  });

  it('refuses a body missing any of its four required keys, naming each, and keeps every detail field within 128 characters', async () => {
    const full = {
      items: [{ prompt_text: 'What is the best CRM for startups?' }],
      defaults: {},
      classification: { mode: 'auto' },
      validate_only: false,
    };
    for (const key of Object.keys(full)) {
      const { [key]: _left, ...rest } = full as Record<string, unknown>;
      const answer = await post({ payload: JSON.stringify(rest) });
      expect([answer.status, answer.json.error.code, answer.json.error.details]).toEqual([
        400,
        'invalid_request',
        [{ field: key, issue: 'is missing' }],
      ]);
    }
    const long = 'x'.repeat(300);
    const answer = await post({
      payload: JSON.stringify({ ...full, items: [{ prompt_text: 'What is the best CRM for startups?', [long]: 1 }] }),
    });
    expect(answer.status).toBe(400);
    const [detail] = answer.json.error.details;
    expect(detail).toEqual({ field: `items[0].${'x'.repeat(118)}…`, issue: 'is not an allowed field' });
    expect([...detail.field].length).toBe(128);
  });

  it('needs a V2-eligible, owner-issued key with prompts_write; a read key gains no import access', async () => {
    const statuses = [];
    for (const apiKey of [
      sandbox.keys.readOnly,
      sandbox.keys.notV2Eligible,
      sandbox.keys.notOwnerIssued,
      sandbox.keys.v2Disabled,
      'nope-not-a-key',
    ]) {
      const answer = await post({ apiKey });
      statuses.push([answer.status, answer.json.error.code]);
    }
    expect(statuses).toEqual([
      [403, 'forbidden'],
      [403, 'forbidden'],
      [403, 'forbidden'],
      [403, 'forbidden'],
      [401, 'unauthorized'],
    ]);
    expect((await post({ apiKey: sandbox.keys.noReadScope })).status).toBe(202);
  });

  it('binds receipts to the lineage: a rotated key replays and reads, an independent key gets the missing-receipt 404', async () => {
    const { json } = await post();
    const location = `/public/v2/websites/${website}/prompt-imports/${json.data.id}`;
    const replay = await post({ apiKey: sandbox.keys.rotated });
    expect([replay.status, replay.json.data.id]).toEqual([202, json.data.id]);
    expect((await get(location, sandbox.keys.rotated)).status).toBe(200);
    const foreign = await get(location, sandbox.keys.otherLineage);
    const missing = await get(
      `/public/v2/websites/${website}/prompt-imports/pim_doesnotexist`,
      sandbox.keys.otherLineage,
    );
    expect(foreign.status).toBe(404);
    expect({ ...foreign.json, meta: null }).toEqual({ ...missing.json, meta: null });
    // An independent key's same Idempotency-Key is its own operation, not a replay.
    const independent = await post({ apiKey: sandbox.keys.otherLineage });
    expect(independent.json.data.id).not.toBe(json.data.id);
  });

  it('expires receipt and key after 30 days: GET 404, and the key starts a new operation', async () => {
    const { json } = await post();
    const location = `/public/v2/websites/${website}/prompt-imports/${json.data.id}`;
    expect(json.data.expires_at).toBe(new Date(Date.parse(json.data.created_at) + 30 * 86_400_000).toISOString());
    sandbox.clock.advance({ days: 30 });
    expect((await get(location)).status).toBe(404);
    const again = await post();
    expect(again.status).toBe(202);
    expect(again.json.data.id).not.toBe(json.data.id);
  });
});
