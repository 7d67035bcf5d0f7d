import { describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import { call, walk } from './sandbox-http.ts';

/** A fixed script of reads, clock moves, additions and removals; returns every response body. */
async function session(sb: Sandbox): Promise<string[]> {
  const texts: string[] = [];
  const read = async (path: string) => texts.push((await call(sb, path)).text);
  const ids = sb.truth.websites().map((w) => w.id as string);
  await read('/public/v2/websites?limit=2');
  for (const id of ids) {
    await read(`/public/v2/websites/${id}/analytics?include=providers,competitors`);
    const mentions = await walk(sb, `/public/v2/websites/${id}/mentions?limit=40`);
    texts.push(JSON.stringify(mentions));
  }
  sb.clock.advance({ days: 1, hours: 3 });
  const [added] = sb.addWebsites(2);
  sb.removeWebsite(ids[1]!);
  sb.clock.advance({ hours: 9, minutes: 30 });
  texts.push(JSON.stringify(await walk(sb, '/public/v2/websites?limit=3')));
  await read(`/public/v2/websites/${added}/analytics`);
  texts.push(JSON.stringify(await walk(sb, `/public/v2/websites/${ids[0]}/citations?limit=17&analysis_id=ana_none`)));
  texts.push(JSON.stringify(await walk(sb, `/public/v2/websites/${ids[0]}/citations?limit=17`)));
  texts.push(JSON.stringify(await walk(sb, `/public/v2/websites/${ids[0]}/analytics/history?limit=2`)));
  return texts;
}

describe('determinism', () => {
  it('the same seed and the same calls give byte-identical responses, request ids and cursors included', async () => {
    const one = await startSandbox({ seed: 42, requestsPerMinute: 0 });
    const two = await startSandbox({ seed: 42, requestsPerMinute: 0 });
    try {
      expect(one.apiKey).toBe(two.apiKey);
      expect(await session(two)).toEqual(await session(one));
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('another seed gives other data and other keys', async () => {
    const one = await startSandbox({ seed: 1 });
    const two = await startSandbox({ seed: 2 });
    try {
      expect(one.apiKey).not.toBe(two.apiKey);
      expect(JSON.stringify(one.truth.websites())).not.toBe(JSON.stringify(two.truth.websites()));
      expect((await call(one, '/public/v2/websites', two.apiKey)).status).toBe(401);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('produces a deep page of a million-mention feed without materialising it', async () => {
    const sb = await startSandbox({
      websites: 1,
      analysesPerWebsite: 100,
      mentionsPerAnalysis: 10_000,
      requestsPerMinute: 0,
    });
    try {
      const id = sb.truth.websites()[0]!.id as string;
      const analysis = ([...sb.truth.history(id)][50] as { analysis_id: string }).analysis_id;
      const before = process.memoryUsage().heapUsed;
      const page = await call(
        sb,
        `/public/v2/websites/${id}/mentions?analysis_id=${analysis}&provider=perplexity&limit=500`,
      );
      expect(page.body.data).toHaveLength(500);
      expect(page.body.data.every((m: any) => m.analysis_id === analysis && m.provider === 'perplexity')).toBe(true);
      let count = 0;
      for (const _ of sb.truth.mentions(id)) if (++count === 200_000) break;
      expect(count).toBe(200_000);
      // 200k generated rows would take far more than this if they were kept.
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
    } finally {
      await sb.close();
    }
  });
});
