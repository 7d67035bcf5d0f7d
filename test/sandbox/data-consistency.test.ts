/**
 * The default data reads like data (issue 31): after a week of history, read through the real
 * client, every percentage is rebuilt from its counts, counts are plausible and add up,
 * shares of voice sum to at most 100, mention spans point at the brand named by the website's
 * `domain_url`, positions are small, and the brand's own pages are cited under that domain.
 * Edge values live in the `edge_values` variant (read-endpoints.test.ts, the e2e suites).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  citationSchema,
  historyPointSchema,
  mentionSchema,
  snapshotDataSchema,
  snapshotMetaSchema,
  websiteSchema,
} from '../../schemas/index.ts';
import { MENTION_PROVIDERS, PROVIDER_COUNT_KEYS } from '../../schemas/keys.ts';
import { ApiClient } from '../../src/client/api-client.ts';
import { REVIEW_SITES } from '../../src/sandbox/data/text-fragments.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';

type Json = Record<string, any>;

let sb: Sandbox;
let client: ApiClient;

/** Every record of a list endpoint, through the client's pagination and schemas. */
async function all(path: string, schema: z.ZodType): Promise<Json[]> {
  const rows: Json[] = [];
  for await (const page of client.paginate({ path, query: { limit: '500' }, recordSchema: schema })) {
    for (const record of page.records) {
      if (!record.ok) throw new Error(`${path}: record rejected: ${record.error}`);
      rows.push(record.value as Json);
    }
  }
  return rows;
}

/** `part / whole` in percent, or null without a whole. */
const percent = (part: number, whole: number) => (whole === 0 ? null : (100 * part) / whole);

/** What is wrong with `metric` as the percentage `part / whole` (with its reason when null). */
function percentageProblems(
  where: string,
  metric: number | null,
  part: number | null,
  whole: number | null,
  reason: string | undefined,
): string[] {
  if (part === null || whole === null)
    return metric === null && reason !== undefined ? [] : [`${where}: counts null but metric ${metric}`];
  const expected = percent(part, whole);
  if (expected === null)
    return metric === null && reason !== undefined ? [] : [`${where}: ${metric} from ${part}/0, reason ${reason}`];
  return metric !== null && Math.abs(metric - expected) <= 0.005 + 1e-9
    ? []
    : [`${where}: ${metric} is not ${part}/${whole}`];
}

/** The plausibility and arithmetic of a website-level (or provider) metrics + counts pair. */
function measureProblems(where: string, metrics: Json, counts: Json, reasons: Json): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(counts)) {
    if (value !== null && !(Number.isInteger(value) && value >= 0 && value < 1_000_000))
      problems.push(`${where}: ${key} ${value} is not a plausible count`);
  }
  const c = counts;
  if (c.visibility_mentioned_responses > c.visibility_eligible_responses)
    problems.push(`${where}: more responses mention the brand than are eligible`);
  if (c.sentiment_scored_responses > c.sentiment_eligible_responses) problems.push(`${where}: scored > eligible`);
  if (c.sov_brand_mentions + c.sov_competitor_mentions > c.sov_pool_mentions)
    problems.push(`${where}: brand + competitor mentions exceed the pool`);
  if (c.citation_pool !== null && c.brand_citations + c.competitor_citations > c.citation_pool)
    problems.push(`${where}: brand + competitor citations exceed the pool`);
  if (c.positioned_mention_sentences > c.sov_brand_mentions) problems.push(`${where}: more positioned than mentions`);
  problems.push(
    ...percentageProblems(
      `${where} visibility`,
      metrics.visibility,
      c.visibility_mentioned_responses,
      c.visibility_eligible_responses,
      reasons.visibility,
    ),
    ...percentageProblems(
      `${where} share_of_voice`,
      metrics.share_of_voice,
      c.sov_brand_mentions,
      c.sov_pool_mentions,
      reasons.share_of_voice,
    ),
    ...percentageProblems(
      `${where} citation_share`,
      metrics.citation_share,
      c.brand_citations,
      c.citation_pool,
      reasons.citation_share,
    ),
  );
  if ((metrics.sentiment === null) !== (c.sentiment_scored_responses === 0))
    problems.push(`${where}: sentiment ${metrics.sentiment} with ${c.sentiment_scored_responses} scored responses`);
  const position = metrics.average_mention_position;
  if ((position === null) !== (c.positioned_mention_sentences === 0) || (position !== null && position > 20))
    problems.push(`${where}: average position ${position} over ${c.positioned_mention_sentences} sentences`);
  for (const key of Object.keys(metrics))
    if ((metrics[key] === null) !== (reasons[key] !== undefined))
      problems.push(`${where}: ${key} is ${metrics[key]} with reason ${reasons[key]}`);
  return problems;
}

/** What a snapshot's breakdowns get wrong against its website-level counts. */
function breakdownProblems(where: string, data: Json): string[] {
  const problems: string[] = [];
  const { counts } = data;
  for (const key of PROVIDER_COUNT_KEYS) {
    const values = data.providers.map((p: Json) => p.counts[key]);
    const total = values.includes(null) ? null : values.reduce((a: number, b: number) => a + b, 0);
    if (total !== counts[key]) problems.push(`${where}: ${key} ${counts[key]} is not the providers' sum ${total}`);
  }
  expect(data.providers.map((p: Json) => p.provider)).toEqual([...MENTION_PROVIDERS]);
  for (const p of data.providers)
    problems.push(...measureProblems(`${where} ${p.provider}`, p.metrics, p.counts, p.unavailable_reasons));
  const competitorMentions = data.competitors.reduce((a: number, c: Json) => a + c.counts.mentions, 0);
  if (competitorMentions !== counts.sov_competitor_mentions)
    problems.push(`${where}: competitor mentions ${competitorMentions} vs ${counts.sov_competitor_mentions}`);
  let shareOfVoice = data.metrics.share_of_voice ?? 0;
  let citationShare = data.metrics.citation_share ?? 0;
  for (const competitor of data.competitors) {
    const at = `${where} ${competitor.competitor_domain}`;
    const { metrics, counts: cc, unavailable_reasons: reasons } = competitor;
    if (cc.mentioned_responses > cc.eligible_responses) problems.push(`${at}: mentioned > eligible`);
    problems.push(
      ...percentageProblems(
        `${at} visibility`,
        metrics.visibility,
        cc.mentioned_responses,
        cc.eligible_responses,
        reasons.visibility,
      ),
      ...percentageProblems(
        `${at} share_of_voice`,
        metrics.share_of_voice,
        cc.mentions,
        counts.sov_pool_mentions,
        reasons.share_of_voice,
      ),
      ...percentageProblems(
        `${at} citation_share`,
        metrics.citation_share,
        cc.citations,
        counts.citation_pool,
        reasons.citation_share,
      ),
    );
    shareOfVoice += metrics.share_of_voice ?? 0;
    citationShare += metrics.citation_share ?? 0;
  }
  if (shareOfVoice > 100) problems.push(`${where}: brand and competitor shares of voice sum to ${shareOfVoice}`);
  if (citationShare > 100) problems.push(`${where}: citation shares sum to ${citationShare}`);
  return problems;
}

/** The domain label a brand is named after: `https://www.adventure-works-1.example/` -> `adventure-works`. */
const brandLabel = (domainUrl: string) => new URL(domainUrl).hostname.split('.')[1]!.replace(/-\d+$/, '');

beforeAll(async () => {
  sb = await startSandbox({ seed: 3, websites: 8, requestsPerMinute: 0 });
  // A week of history on top of the seeded one; the website measured last has a week of its own.
  sb.clock.advance({ days: 7 });
  client = new ApiClient({ baseUrl: sb.baseUrl, apiKey: sb.apiKey, random: () => 0.5 });
});
afterAll(async () => {
  await client.close();
  await sb.close();
});

describe('the default sandbox data is internally consistent', () => {
  it('after a week, every history point rebuilds its percentages from its counts, which are plausible', async () => {
    const websites = await all('/public/v2/websites', websiteSchema);
    expect(websites).toHaveLength(8);
    const history = (
      await Promise.all(websites.map((w) => all(`/public/v2/websites/${w.id}/analytics/history`, historyPointSchema)))
    ).flat();
    expect(history.length).toBeGreaterThan(90);
    const problems = history.flatMap((h) =>
      measureProblems(h.analysis_id, h.metrics, h.counts, h.meta.unavailable_reasons),
    );
    expect(problems).toEqual([]);
    // Some metrics are missing, each with its reason, as real measurements are.
    expect(history.some((h) => Object.keys(h.meta.unavailable_reasons).length > 0)).toBe(true);
  });

  it('every latest snapshot: counts are the providers sums, competitor metrics come from their counts, shares stay within 100', async () => {
    const websites = await all('/public/v2/websites', websiteSchema);
    const problems: string[] = [];
    for (const website of websites) {
      const { data, meta } = await client.getResource(
        `/public/v2/websites/${website.id}/analytics`,
        { include: 'providers,competitors' },
        snapshotDataSchema,
        snapshotMetaSchema,
      );
      const snapshot = data as Json;
      problems.push(
        ...measureProblems(website.id, snapshot.metrics, snapshot.counts, (meta as Json).unavailable_reasons),
        ...breakdownProblems(website.id, snapshot),
      );
      for (const competitor of snapshot.competitors)
        expect(competitor.competitor_domain).not.toBe(new URL(website.domain_url).hostname);
    }
    expect(problems).toEqual([]);
  });

  it('every mention names the brand of its website where its spans point, at a plausible position', async () => {
    const websites = await all('/public/v2/websites', websiteSchema);
    let count = 0;
    for (const website of websites) {
      const label = brandLabel(website.domain_url);
      for (const mention of await all(`/public/v2/websites/${website.id}/mentions`, mentionSchema)) {
        count++;
        const text = mention.sentence_text as string;
        const named = mention.mention_spans.map((s: Json) => text.slice(s.start, s.end));
        expect(named.length, text).toBeGreaterThan(0);
        for (const name of named) expect(name.toLowerCase().replaceAll(' ', '-'), text).toBe(label);
        // Only ASCII before each span: its offsets are the same in UTF-16 units, code points and bytes.
        for (const span of mention.mention_spans) expect(text.slice(0, span.start)).toMatch(/^[\x20-\x7e]*$/);
        if (mention.position_in_response !== null) expect(mention.position_in_response).toBeLessThanOrEqual(20);
        expect(mention.sentence_text_truncated).toBe(text.endsWith('…'));
      }
    }
    expect(count).toBeGreaterThan(2000);
  });

  it("cites the brand's own pages under the host of its domain_url, the others under its competitors' or review sites", async () => {
    const websites = await all('/public/v2/websites', websiteSchema);
    for (const website of websites) {
      const host = new URL(website.domain_url).hostname;
      const competitors = new Set(
        (await all(`/public/v2/websites/${website.id}/analytics/history`, historyPointSchema)).length > 0
          ? (sb.truth.snapshot(website.id, ['competitors'])!.data as Json).competitors.map(
              (c: Json) => c.competitor_domain,
            )
          : [],
      );
      const citations = await all(`/public/v2/websites/${website.id}/citations`, citationSchema);
      expect(citations.length).toBeGreaterThan(0);
      for (const citation of citations) {
        expect(new URL(citation.url).hostname).toBe(citation.domain);
        expect(
          [host, ...competitors, ...REVIEW_SITES].includes(citation.domain),
          `${citation.domain} of ${website.domain_url}`,
        ).toBe(true);
      }
      expect(citations.some((c) => c.domain === host)).toBe(true);
    }
  });
});
