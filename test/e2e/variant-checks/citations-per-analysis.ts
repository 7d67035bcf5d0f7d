/** `citations_require_analysis_id`: the run reads citations one scan per analysis, each with its own scope, and says so. */
import { expect } from 'vitest';
import { formatRunSummary } from '../../../src/cli/run-summary.ts';
import { createClientStats } from '../../../src/client/client-stats.ts';
import { citationsTable, runsTable, stateTable } from '../../../src/tables/index.ts';
import { comparable, expectedTables } from '../expected-rows.ts';
import { testConfig, type VariantCheck } from '../sync-suite.ts';

export const citationsPerAnalysisCheck: VariantCheck = {
  name: 'reads citations one scan per analysis when the API requires analysis_id, without the history stream, and says so',
  async run(world) {
    const config = testConfig(world.sandbox, { streams: { websites: {}, citations: {} } });
    const summary = await world.sync({ config });
    expect(summary.exitCode).toBe(0);
    expect(comparable(citationsTable, await world.rows(citationsTable))).toEqual(
      comparable(citationsTable, expectedTables(world.sandbox).get('citations')!),
    );
    const websites = world.sandbox.truth.websites();
    const analyses = websites.flatMap((w) =>
      [...world.sandbox.truth.history(w.id)].map((p) => `${w.id}?analysis_id=${p.analysis_id}`),
    );
    expect(analyses.length).toBe(16);
    const scopes = (await world.rows(stateTable)).filter((r) => r.stream === 'citations').map((r) => r.scope);
    expect(scopes.sort()).toEqual(analyses.sort());
    expect(summary.counters.citationsPerAnalysis).toEqual({ websites: websites.length, scans: analyses.length });
    expect((await world.rows(runsTable))[0]!.counts).toMatchObject({
      citations_per_analysis: { websites: 5, scans: 16 },
    });
    expect(formatRunSummary(summary, createClientStats(), world.destination.type)).toContain(
      '\n  citations read one scan per analysis for 5 websites (16 scans): the API requires analysis_id\n',
    );

    // The next run resumes each analysis from its own frontier and reads only what is new.
    world.sandbox.clock.advance({ days: 1 });
    const next = await world.sync({ config });
    expect(next.exitCode).toBe(0);
    expect(comparable(citationsTable, await world.rows(citationsTable))).toEqual(
      comparable(citationsTable, expectedTables(world.sandbox).get('citations')!),
    );
    expect(next.counters.stream('citations').rows).toBeLessThan(summary.counters.stream('citations').rows);
  },
};
