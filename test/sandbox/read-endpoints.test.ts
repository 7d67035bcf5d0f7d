import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import {
  citationSchema,
  dataEnvelope,
  errorEnvelopeSchema,
  historyPointSchema,
  listMetaSchema,
  mentionSchema,
  requestMetaSchema,
  snapshotDataSchema,
  snapshotMetaSchema,
  websiteSchema,
} from '../../schemas/index.ts';
import { MAX_COUNT } from '../../schemas/keys.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call, walk } from './sandbox-http.ts';

let sb: Sandbox;
let measured: string; // a website with snapshots
let unmeasured: string; // tracked, not yet measured

beforeAll(async () => {
  sb = await startSandbox({ requestsPerMinute: 0 });
  const websites = sb.truth.websites();
  measured = websites[0]!.id as string;
  unmeasured = websites.find((w) => w.last_analysis_at === null)!.id as string;
});
afterAll(() => sb.close());

describe('GET /public/v2/websites', () => {
  it('lists every website of the workspace across pages, each valid, in the order of truth', async () => {
    const { rows, metas } = await walk(sb, '/public/v2/websites?limit=2');
    expect(metas).toHaveLength(3);
    for (const meta of metas) listMetaSchema.parse(meta);
    expect(metas.map((m) => m.has_more)).toEqual([true, true, false]);
    expect(metas.every((m) => m.scan_upper_bound === undefined)).toBe(true);
    for (const row of rows) websiteSchema.parse(row);
    expect(rows).toEqual(sb.truth.websites());
    expect(rows).toHaveLength(5);
  });

  it('shows a website before its first analysis with last_analysis_at null', async () => {
    const { body } = await call(sb, `/public/v2/websites/${unmeasured}`);
    dataEnvelope(websiteSchema, requestMetaSchema).parse(body);
    expect(body.data.last_analysis_at).toBeNull();
  });
});

describe('GET /public/v2/websites/{website_id}/analytics', () => {
  it('returns the latest snapshot without breakdowns unless asked, valid against the schemas', async () => {
    const { status, body } = await call(sb, `/public/v2/websites/${measured}/analytics`);
    expect(status).toBe(200);
    snapshotDataSchema.parse(body.data);
    snapshotMetaSchema.parse(body.meta);
    expect(body.meta.includes).toEqual([]);
    expect(body.data.providers).toBeUndefined();
    expect(body.data.competitors).toBeUndefined();
    const { request_id, ...meta } = body.meta;
    expect(request_id).toMatch(/^req_\d+$/);
    expect({ data: body.data, meta }).toEqual(sb.truth.snapshot(measured));
  });

  it('adds providers and competitors for include, whitespace tolerated, and lists them in meta.includes', async () => {
    const { body } = await call(
      sb,
      `/public/v2/websites/${measured}/analytics?include=${encodeURIComponent(' competitors , providers ')}`,
    );
    snapshotDataSchema.parse(body.data);
    expect(body.meta.includes).toEqual(['competitors', 'providers']);
    expect(body.data.providers.map((p: any) => p.provider)).toEqual([
      'chatgpt',
      'gemini',
      'perplexity',
      'google_ai_overview',
    ]);
    expect(body.data.competitors.length).toBeGreaterThanOrEqual(2);
    const only = await call(sb, `/public/v2/websites/${measured}/analytics?include=providers`);
    expect(only.body.meta.includes).toEqual(['providers']);
    expect(only.body.data.competitors).toBeUndefined();
  });

  it('is 404 not_found until the first snapshot commits, then 200, and the listing shows last_analysis_at', async () => {
    const before = await call(sb, `/public/v2/websites/${unmeasured}/analytics`);
    expect(before.status).toBe(404);
    errorEnvelopeSchema.parse(before.body);
    expect(before.body.error).toEqual({
      code: 'not_found',
      message: 'No analytics snapshot has been published for this website yet.',
    });
    expect(sb.truth.snapshot(unmeasured)).toBeNull();
    sb.clock.advance({ days: 3 });
    const after = await call(sb, `/public/v2/websites/${unmeasured}/analytics`);
    expect(after.status).toBe(200);
    expect(after.body.data.as_of).toBe(
      (await call(sb, `/public/v2/websites/${unmeasured}`)).body.data.last_analysis_at,
    );
  });
});

describe('feeds', () => {
  it.each([
    ['analytics/history', 'history', historyPointSchema],
    ['mentions', 'mentions', mentionSchema],
    ['citations', 'citations', citationSchema],
  ] as const)('%s: a full scan equals truth row for row, every row valid', async (path, truthName, schema) => {
    const { rows, metas } = await walk(sb, `/public/v2/websites/${measured}/${path}?limit=7`);
    for (const meta of metas) listMetaSchema.parse(meta);
    for (const row of rows) schema.parse(row);
    expect(rows).toEqual([...sb.truth[truthName](measured)]);
    expect(rows.length).toBeGreaterThan(0);
    // One scan, one frontier: every page repeats the first page's scan_upper_bound.
    expect(new Set(metas.map((m) => m.scan_upper_bound)).size).toBe(1);
  });

  it('orders rows by available_at, then id, with unique ids', async () => {
    const { rows } = await walk(sb, `/public/v2/websites/${measured}/mentions?limit=500`);
    const keys = rows.map((r) => `${r.available_at}|${r.id}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  });

  it('filters mentions by provider, and mentions and citations by analysis_id', async () => {
    const mentions = await walk(sb, `/public/v2/websites/${measured}/mentions?limit=500`);
    const gemini = await walk(sb, `/public/v2/websites/${measured}/mentions?provider=gemini&limit=5`);
    expect(gemini.rows).toEqual(mentions.rows.filter((r) => r.provider === 'gemini'));
    expect(gemini.rows.length).toBeGreaterThan(0);
    for (const feed of ['mentions', 'citations']) {
      const all = await walk(sb, `/public/v2/websites/${measured}/${feed}?limit=500`);
      const analysis = all.rows[0].analysis_id;
      const one = await walk(sb, `/public/v2/websites/${measured}/${feed}?analysis_id=${analysis}`);
      expect(one.rows).toEqual(all.rows.filter((r) => r.analysis_id === analysis));
      expect(one.rows.length).toBeGreaterThan(0);
    }
  });

  it('publishes evidence of an analysis after its snapshot (late evidence)', async () => {
    const snapshot = sb.truth.snapshot(measured)!.data as any;
    const late = [...sb.truth.mentions(measured)].filter(
      (m: any) => m.analysis_id === snapshot.analysis_id && m.available_at > snapshot.available_at,
    );
    expect(late.length).toBeGreaterThan(0);
  });

  it('carries the data variety loaders trip on under the edge_values variant', async () => {
    const sb = await startSandbox({ requestsPerMinute: 0, variants: ['edge_values'] });
    onTestFinished(() => sb.close());
    const mentions = sb.truth.websites().flatMap((w) => [...sb.truth.mentions(w.id as string)]) as any[];
    const texts = mentions.map((m) => m.sentence_text as string);
    expect(texts.some((t) => /\p{Extended_Pictographic}/u.test(t))).toBe(true);
    expect(texts.some((t) => /[\u0590-\u06ff]/.test(t))).toBe(true);
    expect(texts.some((t) => /[\u4e00-\u9fff]/.test(t))).toBe(true);
    expect(texts.some((t) => /\p{M}/u.test(t))).toBe(true);
    expect(texts.some((t) => t.includes('\n'))).toBe(true);
    expect(texts.some((t) => t.includes('"'))).toBe(true);
    expect(mentions.some((m) => m.sentence_text_truncated)).toBe(true);
    expect(mentions.some((m) => m.position_in_response === null)).toBe(true);
    expect(mentions.some((m) => m.sentiment === null)).toBe(true);
    expect(mentions.some((m) => m.position_in_response === MAX_COUNT)).toBe(true);
    const history = sb.truth.websites().flatMap((w) => [...sb.truth.history(w.id as string)]) as any[];
    const counts = history.flatMap((h) => Object.values(h.counts)) as (number | null)[];
    expect(counts.some((c) => c !== null && c > 2 ** 32)).toBe(true);
    expect(counts).toContain(MAX_COUNT);
    expect(history.some((h) => h.meta.data_quality.is_partial)).toBe(true);
    // A field the spec names without placing it: clients keep it without knowing it.
    expect(
      history.every(
        (h) => h.meta.data_quality.postprocess_status === (h.meta.data_quality.is_partial ? 'pending' : 'complete'),
      ),
    ).toBe(true);
    expect(
      history.some(
        (h) => Object.values(h.metrics).includes(null) && Object.keys(h.meta.unavailable_reasons).length > 0,
      ),
    ).toBe(true);
    expect(new Set(history.map((h) => h.meta.metric_definition_bundle_version)).size).toBe(2);
  });
});

describe('websites added and removed', () => {
  it('lists an added website at once and hides a removed one at once, also mid-scan and from its feeds', async () => {
    const [added] = sb.addWebsites(1);
    const listed = await walk(sb, '/public/v2/websites');
    expect(listed.rows.map((w) => w.id)).toContain(added);
    expect(listed.rows.find((w) => w.id === added).last_analysis_at).toBeNull();

    const first = await call(sb, '/public/v2/websites?limit=1');
    const firstFeedPage = await call(sb, `/public/v2/websites/${measured}/mentions?limit=1`);
    const second = sb.truth.websites()[1]!.id as string;
    sb.removeWebsite(second);
    const rest = await walk(sb, '/public/v2/websites?limit=1', sb.apiKey, first.body.meta.next_cursor);
    expect(rest.rows.map((w) => w.id)).not.toContain(second);
    expect([first.body.data[0].id, ...rest.rows.map((w) => w.id)]).toEqual(sb.truth.websites().map((w) => w.id));

    for (const path of ['', '/analytics', '/analytics/history', '/mentions', '/citations']) {
      const gone = await call(sb, `/public/v2/websites/${second}${path}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe('not_found');
    }
    sb.removeWebsite(measured);
    const midScan = await call(
      sb,
      `/public/v2/websites/${measured}/mentions?limit=1&cursor=${encodeURIComponent(firstFeedPage.body.meta.next_cursor)}`,
    );
    expect(midScan.status).toBe(404);
    expect(() => sb.removeWebsite(measured)).toThrow(`removeWebsite: no listed website ${measured}`);
  });
});

describe('openapi.json and unknown paths', () => {
  it('serves the bundled OpenAPI document to a key with read scope, counted like every read; no key is 401', async () => {
    const before = sb.stats.requests;
    const { status, body } = await call(sb, '/public/v2/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(body.paths)).toContain('/public/v2/websites');
    expect(sb.stats.requests).toBe(before + 1);
    const anonymous = await call(sb, '/public/v2/openapi.json', null);
    expect([anonymous.status, anonymous.body.error.code]).toEqual([401, 'unauthorized']);
    expect((await call(sb, '/public/v2/openapi.json', sb.keys.noReadScope)).status).toBe(403);
  });

  it('answers unknown paths with a 404 envelope and a request id', async () => {
    const { status, body } = await call(sb, '/public/v2/nope');
    expect(status).toBe(404);
    errorEnvelopeSchema.parse(body);
    expect(body.error.message).toBe('No endpoint GET /public/v2/nope.');
  });
});
