/**
 * Citations, whose fields the spec does not show (2.6): every JSON object is stored, a
 * malformed field only empties its column. Engine behaviour, so one destination (DuckDB)
 * proves it; the citation variants also run the shared suite in sync-variants.ts.
 */
import { expect, it } from 'vitest';
import { formatRunSummary } from '../../src/cli/run-summary.ts';
import { createClientStats } from '../../src/client/client-stats.ts';
import { citationsTable, rejectedTable, runsTable, stateTable } from '../../src/tables/index.ts';
import { useDuckdbWorlds } from './duckdb-worlds.ts';
import { comparable, expectedTables } from './expected-rows.ts';
import { SANDBOX, testConfig } from './sync-suite.ts';

const openWorld = useDuckdbWorlds();

it('stores a citation whose observed_at is malformed, with that column NULL and the value in _raw (exit 0)', async () => {
  const world = await openWorld();
  const [website] = world.sandbox.truth.websites();
  world.sandbox.faults.set({ kind: 'malformed_record', routes: ['citations'], websites: [website!.id], count: 1, field: 'observed_at', value: 'yesterday' });
  const summary = await world.sync();
  expect(summary.exitCode).toBe(0);
  expect(await world.rows(rejectedTable)).toEqual([]);
  const first = [...world.sandbox.truth.citations(website!.id)][0]!;
  const row = (await world.rows(citationsTable)).find((r) => r.id === first.id)!;
  expect(row).toMatchObject({ website_id: website!.id, analysis_id: first.analysis_id, provider: first.provider, observed_at: null });
  expect(row._raw).toEqual({ ...first, observed_at: 'yesterday' });
});

it('reads citations one scan per analysis when the API requires analysis_id, without the history stream, and says so', async () => {
  const world = await openWorld({ ...SANDBOX, variants: ['citations_require_analysis_id'] });
  const config = testConfig(world.sandbox, { streams: { websites: {}, citations: {} } });
  const summary = await world.sync({ config });
  expect(summary.exitCode).toBe(0);
  expect(comparable(citationsTable, await world.rows(citationsTable))).toEqual(comparable(citationsTable, expectedTables(world.sandbox).get('citations')!));
  const websites = world.sandbox.truth.websites();
  const analyses = websites.flatMap((w) => [...world.sandbox.truth.history(w.id)].map((p) => `${w.id}?analysis_id=${p.analysis_id}`));
  expect(analyses.length).toBe(16);
  const scopes = (await world.rows(stateTable)).filter((r) => r.stream === 'citations').map((r) => r.scope);
  expect(scopes.sort()).toEqual(analyses.sort());
  expect(summary.counters.citationsPerAnalysis).toEqual({ websites: websites.length, scans: analyses.length });
  expect((await world.rows(runsTable))[0]!.counts).toMatchObject({ citations_per_analysis: { websites: 5, scans: 16 } });
  expect(formatRunSummary(summary, createClientStats(), 'duckdb')).toContain('\n  citations read one scan per analysis for 5 websites (16 scans): the API requires analysis_id\n');

  // The next run resumes each analysis from its own frontier and reads only what is new.
  world.sandbox.clock.advance({ days: 1 });
  const next = await world.sync({ config });
  expect(next.exitCode).toBe(0);
  expect(comparable(citationsTable, await world.rows(citationsTable))).toEqual(comparable(citationsTable, expectedTables(world.sandbox).get('citations')!));
  expect(next.counters.stream('citations').rows).toBeLessThan(summary.counters.stream('citations').rows);
});
