/**
 * Hostile shapes (spec 2: objects may carry additional fields, of any depth): records nested
 * 5,000 levels deep (the sandbox's `deep_records` variant: one website of the listing and the
 * first mention of every analysis) are quarantined like any malformed record, their exact
 * text kept, while everything else loads. Engine behaviour, so one destination (DuckDB).
 */
import { expect, it } from 'vitest';
import { withDeepField } from '../../src/sandbox/data/deep-field.ts';
import { analyticsLatestTable, rejectedTable, websitesTable } from '../../src/tables/index.ts';
import { useDuckdbWorlds } from './duckdb-worlds.ts';
import { tooDeep } from './expected-rows.ts';
import { SANDBOX } from './sync-suite.ts';

const openWorld = useDuckdbWorlds();
const REASON = 'nested deeper than 100 levels of objects and arrays, the most aivis stores';

it('quarantines records nested 5,000 levels deep, listing included, keeps their text, and loads the rest (exit 3, every run)', async () => {
  const world = await openWorld({ ...SANDBOX, variants: ['deep_records'] });
  for (let run = 0; run < 2; run++) {
    const websites = world.sandbox.truth.websites();
    const deepWebsite = websites.find((w) => tooDeep(w))!;
    const deepMentions = websites.flatMap((w) => [...world.sandbox.truth.mentions(w.id)].filter((m) => tooDeep(m)).map((m) => [w.id, m.id as string]));
    expect(deepMentions).toHaveLength(16);
    const summary = await world.sync();
    expect(summary.exitCode).toBe(3);
    expect(summary.counters.stream('websites').rejected).toBe(1);
    expect(summary.counters.stream('mentions').rejected).toBe(run === 0 ? 16 : 0);
    // The same records read again (the second run) are the same rejections, not new ones.
    const rejected = await world.rows(rejectedTable);
    expect(rejected.map((r) => [r.stream, r.scope, r.error]).sort()).toEqual(
      [['websites', '*', REASON], ...deepMentions.map(([website]) => ['mentions', website, REASON])].sort(),
    );
    // `_raw` is a JSON string holding the record's exact text.
    for (const row of rejected) {
      expect(typeof row._raw).toBe('string');
      const record = JSON.parse(row._raw as string) as { id: string; extensions: unknown };
      expect(tooDeep(record.extensions)).toBe(true);
      expect((row._raw as string).endsWith(`${'}'.repeat(5000)}`)).toBe(true);
    }
    expect(rejected.map((r) => (JSON.parse(r._raw as string) as { id: string }).id).sort()).toEqual([deepWebsite.id, ...deepMentions.map(([, id]) => id)].sort());
    // The website whose listing record was quarantined is still synced and never taken for removed.
    expect((await world.rows(websitesTable)).map((w) => w.id)).not.toContain(deepWebsite.id);
    expect(summary.counters.websitesDone).toBe(websites.length);
    expect(summary.counters.removedWebsites).toBe(0);
    await world.expectTruth();
  }
});

it('rejects a snapshot carrying a field 5,000 levels deep whole, once however often it is read', async () => {
  const world = await openWorld();
  const measured = world.sandbox.truth.websites().find((w) => w.last_analysis_at !== null)!;
  const deep = withDeepField({}).extensions;
  for (let run = 0; run < 2; run++) {
    world.sandbox.faults.set({ kind: 'malformed_record', routes: ['analytics.latest'], websites: [measured.id], count: 1, field: 'extensions', value: deep });
    expect((await world.sync()).exitCode).toBe(3);
  }
  expect((await world.rows(rejectedTable)).map((r) => [r.stream, r.scope, r.error, typeof r._raw])).toEqual([['analytics', measured.id, REASON, 'string']]);
  expect((await world.rows(analyticsLatestTable)).map((r) => r.website_id)).not.toContain(measured.id);
});
