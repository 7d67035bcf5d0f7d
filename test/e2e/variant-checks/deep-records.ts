/** `deep_records`: records nested 5,000 levels deep are quarantined with their exact text, listing included, and the rest loads. */
import { expect } from 'vitest';
import { rejectedTable, websitesTable } from '../../../src/tables/index.ts';
import { tooDeep } from '../expected-rows.ts';
import type { VariantCheck } from '../sync-suite.ts';

/** README's wording of the quarantine. */
export const TOO_DEEP_REASON = 'nested deeper than 100 levels of objects and arrays, the most aivis stores';

export const deepRecordsCheck: VariantCheck = {
  name: 'quarantines records nested 5,000 levels deep, listing included, keeps their text, and loads the rest (exit 3, every run)',
  async run(world) {
    for (let run = 0; run < 2; run++) {
      const websites = world.sandbox.truth.websites();
      const deepWebsite = websites.find((w) => tooDeep(w))!;
      const deepMentions = websites.flatMap((w) =>
        [...world.sandbox.truth.mentions(w.id)].filter((m) => tooDeep(m)).map((m) => [w.id, m.id as string]),
      );
      expect(deepMentions).toHaveLength(16);
      const summary = await world.sync();
      expect(summary.exitCode).toBe(3);
      expect(summary.counters.stream('websites').rejected).toBe(1);
      expect(summary.counters.stream('mentions').rejected).toBe(run === 0 ? 16 : 0);
      // The same records read again (the second run) are the same rejections, not new ones.
      const rejected = await world.rows(rejectedTable);
      expect(rejected.map((r) => [r.stream, r.scope, r.error]).sort()).toEqual(
        [
          ['websites', '*', TOO_DEEP_REASON],
          ...deepMentions.map(([website]) => ['mentions', website, TOO_DEEP_REASON]),
        ].sort(),
      );
      // `_raw` is a JSON string holding the record's exact text.
      for (const row of rejected) {
        expect(typeof row._raw).toBe('string');
        const record = JSON.parse(row._raw as string) as { id: string; extensions: unknown };
        expect(tooDeep(record.extensions)).toBe(true);
        expect((row._raw as string).endsWith(`${'}'.repeat(5000)}`)).toBe(true);
      }
      expect(rejected.map((r) => (JSON.parse(r._raw as string) as { id: string }).id).sort()).toEqual(
        [deepWebsite.id, ...deepMentions.map(([, id]) => id)].sort(),
      );
      // The website whose listing record was quarantined is still synced and never taken for removed.
      expect((await world.rows(websitesTable)).map((w) => w.id)).not.toContain(deepWebsite.id);
      expect(summary.counters.websitesDone).toBe(websites.length);
      expect(summary.counters.removedWebsites).toBe(0);
      await world.expectTruth();
    }
  },
};
