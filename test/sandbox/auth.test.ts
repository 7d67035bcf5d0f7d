import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from '../../schemas/index.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call } from './sandbox-http.ts';

let sb: Sandbox;
let own: string;
let foreign: string;
const READ_PATHS = (id: string) => [
  '/public/v2/websites',
  `/public/v2/websites/${id}`,
  `/public/v2/websites/${id}/analytics`,
  `/public/v2/websites/${id}/analytics/history`,
  `/public/v2/websites/${id}/mentions`,
  `/public/v2/websites/${id}/citations`,
];

beforeAll(async () => {
  sb = await startSandbox({ requestsPerMinute: 0 });
  own = sb.truth.websites()[0]!.id as string;
  foreign = (await call(sb, '/public/v2/websites', sb.keys.otherWorkspace)).body.data[0].id;
});
afterAll(() => sb.close());

const withoutRequestId = (text: string) => text.replace(/"request_id":"[^"]+"/, '"request_id":"-"');

describe('authentication and authorization (spec part 5)', () => {
  it.each([
    ['no Authorization header', null, 'Missing API key: send the header Authorization: Bearer <API_KEY>.'],
    [
      'an unknown key',
      'aivis_sbx_not-a-key',
      'Invalid API key: the Authorization header does not carry a known bearer key.',
    ],
  ])('%s is 401 unauthorized on every read', async (_, key, message) => {
    for (const path of READ_PATHS(own)) {
      const { status, body, text } = await call(sb, path, key);
      expect(status).toBe(401);
      errorEnvelopeSchema.parse(body);
      expect(body.error).toEqual({ code: 'unauthorized', message });
      if (key) expect(text).not.toContain(key);
    }
  });

  it('a non-bearer scheme is 401', async () => {
    const res = await fetch(`${sb.baseUrl}/public/v2/websites`, { headers: { authorization: `Basic ${sb.apiKey}` } });
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain(sb.apiKey);
  });

  it.each([
    [
      'a workspace without V2',
      'v2Disabled',
      'Public API V2 is not enabled for this workspace; it is enabled per workspace on request.',
    ],
    ['a key without read scope', 'noReadScope', 'This API key lacks the read scope; use a key with read scope.'],
  ] as const)('%s is 403 forbidden on every read', async (_, name, message) => {
    for (const path of READ_PATHS(own)) {
      const { status, body } = await call(sb, path, sb.keys[name]);
      expect(status).toBe(403);
      errorEnvelopeSchema.parse(body);
      expect(body.error).toEqual({ code: 'forbidden', message });
    }
  });

  it('read-only and prompt-capable keys both read', async () => {
    for (const key of [sb.apiKey, sb.keys.readOnly, sb.keys.rotated]) {
      expect((await call(sb, '/public/v2/websites', key)).status).toBe(200);
    }
  });

  it("another workspace's ids are 404, byte-identical (but for request_id) to a missing id", async () => {
    const missingPaths = READ_PATHS('web_doesNotExist0');
    for (const [i, foreignPath] of READ_PATHS(foreign).entries()) {
      if (i === 0) continue; // the listing has no id
      const hidden = await call(sb, foreignPath);
      const missing = await call(sb, missingPaths[i]!);
      expect(hidden.status).toBe(404);
      expect(withoutRequestId(hidden.text)).toBe(withoutRequestId(missing.text));
      expect(hidden.body.error).toEqual({
        code: 'not_found',
        message: 'The website does not exist or is not accessible with this key.',
      });
    }
    // ...and the other workspace's key sees none of workspace 1.
    const list = await call(sb, '/public/v2/websites', sb.keys.otherWorkspace);
    expect(list.body.data.map((w: any) => w.id)).not.toContain(own);
    expect((await call(sb, `/public/v2/websites/${own}`, sb.keys.otherWorkspace)).status).toBe(404);
  });

  it('every response carries meta.request_id and the same X-Request-Id header, distinct per request', async () => {
    const answers = [
      await call(sb, '/public/v2/websites'),
      await call(sb, '/public/v2/websites', null),
      await call(sb, '/public/v2/websites?limit=x'),
    ];
    const ids = answers.map((a) => a.body.meta.request_id);
    for (const a of answers) expect(a.headers['x-request-id']).toBe(a.body.meta.request_id);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
  });
});
