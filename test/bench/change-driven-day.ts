/**
 * Figure: what change-driven reads (docs/configuration.md#change-driven-reads) save on an
 * hourly schedule. One simulated day of hourly syncs of a workspace, after a first full sync,
 * on the sandbox's pinned data clock (also the runs' clock, so no `scan_upper_bound` is ever
 * in aivis's future): after a first full sync and two uncounted hourly runs (the first
 * sighting of every website settles for `settle_for`), each measured website gets one new analysis a day, its hour set by the
 * world's seed (about 1 in 24 websites an hour). The requests of those hourly runs with
 * `skip_unchanged: true`, `sweep_every: 24h`, `settle_for: 2h` over the same day read in full
 * (the default), and the busiest hourly run's share of an hour at `budget` requests/min.
 * Only the request ratio is measured; whether each new snapshot landed the run after its
 * publication is checked by the end-to-end suite (test/e2e/coverage-suite.ts), not here.
 */
import { ApiClient } from '../../src/client/api-client.ts';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { atMost, round, worldInputs, type BenchFigure } from './bench-figure.ts';
import { benchConfig, openPostgres, syncOnce } from './bench-sync.ts';

const CHANGE_DRIVEN = { skip_unchanged: true, sweep_every: '24h', settle_for: '2h' } as const;

/**
 * The first run sees every website's `last_analysis_at` for the first time, so every website
 * settles (is read again) for `settle_for` after it: these hourly runs warm up, uncounted.
 */
const WARM_UP_HOURS = 2;

/** The requests of each of `hours` hourly runs, after a first full sync and the warm-up runs. */
async function hourlyRequests(
  databaseUrl: string,
  world: SandboxOptions,
  hours: number,
  source: Record<string, unknown>,
): Promise<number[]> {
  const sandbox = await startSandbox({ ...world, requestsPerMinute: 0 });
  const destination = await openPostgres(databaseUrl);
  try {
    const config = benchConfig({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, databaseUrl }, source);
    const client = new ApiClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, requestsPerMinute: 6000 });
    const now = () => new Date(sandbox.clock.nowMs());
    await syncOnce({ config, client, destination, now });
    const perRun: number[] = [];
    for (let hour = 0; hour < WARM_UP_HOURS + hours; hour++) {
      sandbox.clock.advance({ hours: 1 });
      const before = sandbox.stats.requests;
      await syncOnce({ config, client, destination, now });
      perRun.push(sandbox.stats.requests - before);
    }
    return perRun.slice(WARM_UP_HOURS);
  } finally {
    await destination.close();
    await sandbox.close();
  }
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

export async function changeDrivenDay(
  database: (name: string) => Promise<string>,
  world: SandboxOptions,
  hours: number,
  budget: number,
): Promise<BenchFigure[]> {
  const skipping = await hourlyRequests(await database('change_driven_skip'), world, hours, CHANGE_DRIVEN);
  const full = await hourlyRequests(await database('change_driven_full'), world, hours, {});
  const ratio = round(sum(skipping) / sum(full));
  const busiest = Math.max(...skipping);
  const share = round(busiest / (budget * 60));
  const inputs = `${worldInputs(world)}; ${hours} hourly runs after a full sync and 2 warm-up runs; skip_unchanged, sweep_every 24h, settle_for 2h`;
  return [
    {
      key: 'change_driven.requests_ratio',
      figure: `Requests of hourly syncs over ${hours} h, change-driven / full reads`,
      value: ratio,
      ...atMost(0.15)(ratio),
      measured: `${sum(skipping)} requests / ${sum(full)} (per run ${Math.min(...skipping)} to ${busiest} vs ${Math.min(...full)} to ${Math.max(...full)}); landing of each new snapshot not measured here`,
      inputs,
      detail: { skipping, full },
    },
    {
      key: 'change_driven.hourly_budget_share',
      figure: `Busiest change-driven hourly run's share of an hour at ${budget} requests/min`,
      value: share,
      target: 'informational',
      met: true,
      measured: `${busiest} requests / ${budget * 60}`,
      inputs,
      detail: { busiest, budgetPerHour: budget * 60 },
    },
  ];
}
