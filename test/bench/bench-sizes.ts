/**
 * The two sizes of a bench run. The default finishes in well under 15 minutes on a shared
 * 2-core machine (measured: see docs/performance.md); `--quick` is a first look in about
 * three minutes, too small for the memory figure to say much about flatness.
 */
import type { SandboxOptions } from '../../src/sandbox/index.ts';
import type { LargestPageName } from './largest-page.ts';

export interface BenchSizes {
  readonly name: 'default' | 'quick';
  /** Figure 1: a full sync, then an incremental one after `advanceDays` of data time. */
  readonly efficiency: SandboxOptions;
  readonly advanceDays: number;
  /** Figure 2: enough requests for several minutes at `budget`; the clock runs `clockFactor` times fast. */
  readonly budget: SandboxOptions;
  readonly requestsPerMinute: number;
  readonly clockFactor: number;
  /** Figure 2b: a day (`hours`) of hourly syncs of this world, change-driven against full reads, at figure 2's budget. */
  readonly changeDriven: { readonly world: SandboxOptions; readonly hours: number };
  /** Figure 3: mention rows loaded, in flushes of the destination's own flush size. */
  readonly loadRows: number;
  readonly loadRounds: number;
  /** Figure 4: mention rows per `aivis sync` process. */
  readonly memoryRows: readonly number[];
  /** Figure 4b: the largest pages each destination syncs (each a 64 MiB body: about 30 s a page). */
  readonly largestPages: { readonly postgres: readonly LargestPageName[]; readonly duckdb: readonly LargestPageName[] };
  /** Figure 10: prompt rows `import-prompts --from-table` validates from Postgres. */
  readonly importRows: number;
  /** Figure 5. */
  readonly endToEnd: SandboxOptions;
  /** Figure 6: rows of the BigQuery table a 5,000-row flush goes into, small and large. */
  readonly bigqueryTableRows: readonly [number, number];
  /** Figure 7: `count` workspaces of this size (seeds from its seed), each at figure 2's budget, the clock `clockFactor` times fast. */
  readonly workspaces: { readonly world: SandboxOptions; readonly count: number; readonly clockFactor: number };
  /** Figure 8: `count` workspaces of this size synced at once into one BigQuery dataset. */
  readonly bigqueryWorkspaces: { readonly world: SandboxOptions; readonly count: number };
  /**
   * Figure 9: a rate-limited incremental sync of this world at `budget`/min (30: the run lasts
   * about 13 minutes, as a sync of 100 websites does at a budget shared by three workspaces),
   * the clock `clockFactor` times fast; then the same world with `worstCaseWebsites` websites,
   * whose run lasts just longer than one default flush interval (17 minutes: three resumes,
   * the most warehouse time per minute of run). `--quick` runs the worst case alone.
   */
  readonly snowflakeWarehouse: {
    readonly world: SandboxOptions;
    readonly budget: number;
    readonly clockFactor: number;
    readonly worstCaseWebsites: number;
    readonly worstCaseOnly: boolean;
  };
}

export const DEFAULT_SIZES: BenchSizes = {
  name: 'default',
  efficiency: { seed: 7, websites: 40, analysesPerWebsite: 10, mentionsPerAnalysis: 120, citationsPerAnalysis: 60 },
  advanceDays: 2,
  changeDriven: {
    world: { seed: 11, websites: 1000, analysesPerWebsite: 2, mentionsPerAnalysis: 4, citationsPerAnalysis: 2 },
    hours: 24,
  },
  budget: { seed: 5, websites: 120, analysesPerWebsite: 3, mentionsPerAnalysis: 20, citationsPerAnalysis: 10 },
  requestsPerMinute: 90,
  clockFactor: 20,
  loadRows: 60_000,
  loadRounds: 2,
  memoryRows: [10_000, 100_000, 1_000_000],
  largestPages: { postgres: ['limit', 'longest'], duckdb: ['limit', 'longest'] },
  importRows: 1_000_000,
  endToEnd: { seed: 9, websites: 20, analysesPerWebsite: 10, mentionsPerAnalysis: 600, citationsPerAnalysis: 120 },
  bigqueryTableRows: [1_000_000, 10_000_000],
  workspaces: {
    world: { seed: 21, websites: 70, analysesPerWebsite: 2, mentionsPerAnalysis: 20, citationsPerAnalysis: 10 },
    count: 10,
    clockFactor: 4,
  },
  bigqueryWorkspaces: {
    world: { seed: 31, websites: 10, analysesPerWebsite: 3, mentionsPerAnalysis: 40, citationsPerAnalysis: 10 },
    count: 5,
  },
  snowflakeWarehouse: {
    world: { seed: 41, websites: 100, analysesPerWebsite: 2, mentionsPerAnalysis: 5, citationsPerAnalysis: 2 },
    budget: 30,
    clockFactor: 20,
    worstCaseWebsites: 135,
    worstCaseOnly: false,
  },
};

export const QUICK_SIZES: BenchSizes = {
  name: 'quick',
  efficiency: { seed: 7, websites: 10, analysesPerWebsite: 4, mentionsPerAnalysis: 120, citationsPerAnalysis: 60 },
  advanceDays: 2,
  changeDriven: {
    world: { seed: 11, websites: 100, analysesPerWebsite: 2, mentionsPerAnalysis: 4, citationsPerAnalysis: 2 },
    hours: 6,
  },
  budget: { seed: 5, websites: 60, analysesPerWebsite: 2, mentionsPerAnalysis: 10, citationsPerAnalysis: 5 },
  requestsPerMinute: 90,
  clockFactor: 20,
  loadRows: 15_000,
  loadRounds: 1,
  memoryRows: [5_000, 10_000, 20_000],
  largestPages: { postgres: ['limit'], duckdb: ['limit'] },
  importRows: 20_000,
  endToEnd: { seed: 9, websites: 10, analysesPerWebsite: 5, mentionsPerAnalysis: 300, citationsPerAnalysis: 60 },
  bigqueryTableRows: [100_000, 1_000_000],
  workspaces: {
    world: { seed: 21, websites: 30, analysesPerWebsite: 2, mentionsPerAnalysis: 10, citationsPerAnalysis: 5 },
    count: 5,
    clockFactor: 4,
  },
  bigqueryWorkspaces: {
    world: { seed: 31, websites: 4, analysesPerWebsite: 2, mentionsPerAnalysis: 20, citationsPerAnalysis: 5 },
    count: 3,
  },
  // The same run lengths as the default's (about 13 and 17 minutes of data time) from fewer
  // websites at a smaller budget: the flush and resume pattern is what the figure measures.
  snowflakeWarehouse: {
    world: { seed: 41, websites: 40, analysesPerWebsite: 2, mentionsPerAnalysis: 5, citationsPerAnalysis: 2 },
    budget: 12,
    clockFactor: 60,
    worstCaseWebsites: 54,
    worstCaseOnly: true,
  },
};
