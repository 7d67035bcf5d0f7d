/**
 * Figure: what change-driven reads (docs/configuration.md#change-driven-reads) save on an
 * hourly schedule. One simulated day of hourly syncs of a workspace, after a first full sync,
 * on the sandbox's pinned data clock (also the runs' clock, so no `scan_upper_bound` is ever
 * in aivis's future): after a first full sync and two uncounted hourly runs (the first
 * sighting of every website settles for `settle_for`), each measured website gets one new analysis a day, its hour set by the
 * world's seed (about 1 in 24 websites an hour). The requests of those hourly runs with
 * `skip_unchanged: true`, `sweep_every: 24h`, `settle_for: 2h` over the same day read in full
 * (the default), and the busiest hourly run's share of an hour at `budget` requests/min.
 * After each change-driven run, what it left unloaded is counted against the sandbox's truth
 * (change-driven-landing.ts): the ratio meets its target only when nothing promised is missing.
 */
import { ApiClient } from '../../src/client/api-client.ts';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { atMost, round, worldInputs, type BenchFigure } from './bench-figure.ts';
import { benchConfig, openPostgres, syncOnce } from './bench-sync.ts';
import { type LandingGaps, landingGaps } from './change-driven-landing.ts';

const CHANGE_DRIVEN = { skip_unchanged: true, sweep_every: '24h', settle_for: '2h' } as const;
const HOUR_MS = 3_600_000;
const BOUNDS = { settleForMs: 2 * HOUR_MS, sweepEveryMs: 24 * HOUR_MS, runIntervalMs: HOUR_MS };

/**
 * The first run sees every website's `last_analysis_at` for the first time, so every website
 * settles (is read again) for `settle_for` after it: these hourly runs warm up, uncounted.
 */
const WARM_UP_HOURS = 2;

interface HourlyRuns {
  /** Requests of each measured run. */
  readonly requests: number[];
  /** What each measured run left unloaded (see LandingGaps). */
  readonly gaps: LandingGaps[];
}

/** The requests of each of `hours` hourly runs, after a first full sync and the warm-up runs, and what each left unloaded. */
async function hourlyRuns(
  databaseUrl: string,
  world: SandboxOptions,
  hours: number,
  source: Record<string, unknown>,
): Promise<HourlyRuns> {
  const sandbox = await startSandbox({ ...world, requestsPerMinute: 0 });
  const destination = await openPostgres(databaseUrl);
  try {
    const config = benchConfig({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, databaseUrl }, source);
    const client = new ApiClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, requestsPerMinute: 6000 });
    const now = () => new Date(sandbox.clock.nowMs());
    await syncOnce({ config, client, destination, now });
    const requests: number[] = [];
    const gaps: LandingGaps[] = [];
    for (let hour = 0; hour < WARM_UP_HOURS + hours; hour++) {
      sandbox.clock.advance({ hours: 1 });
      const before = sandbox.stats.requests;
      await syncOnce({ config, client, destination, now });
      if (hour < WARM_UP_HOURS) continue;
      requests.push(sandbox.stats.requests - before);
      gaps.push(await landingGaps(databaseUrl, sandbox, BOUNDS));
    }
    return { requests, gaps };
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
  const changeDriven = await hourlyRuns(await database('change_driven_skip'), world, hours, CHANGE_DRIVEN);
  const skipping = changeDriven.requests;
  const full = (await hourlyRuns(await database('change_driven_full'), world, hours, {})).requests;
  const total = (key: keyof LandingGaps) => sum(changeDriven.gaps.map((gap) => gap[key]));
  const broken = total('snapshots') + total('history') + total('settledEvidence') + total('sweptEvidence');
  const ratio = round(sum(skipping) / sum(full));
  const busiest = Math.max(...skipping);
  const share = round(busiest / (budget * 60));
  const inputs = `${worldInputs(world)}; ${hours} hourly runs after a full sync and 2 warm-up runs; skip_unchanged, sweep_every 24h, settle_for 2h`;
  return [
    {
      key: 'change_driven.requests_ratio',
      figure: `Requests of hourly syncs over ${hours} h, change-driven / full reads`,
      value: ratio,
      // The saving counts only with nothing lost: a run that left a promised row unloaded misses the target.
      ...(broken === 0 ? atMost(0.15)(ratio) : { target: '<= 0.15', met: false }),
      measured: `${sum(skipping)} requests / ${sum(full)} (per run ${Math.min(...skipping)} to ${busiest} vs ${Math.min(...full)} to ${Math.max(...full)}); after each run unloaded: ${total('snapshots')} snapshots, ${total('history')} history points, ${total('settledEvidence')} evidence rows committed within settle_for, ${total('sweptEvidence')} older than sweep_every + 1 h; ${total('awaitingSweep')} later rows awaiting their sweep (allowed)`,
      inputs,
      detail: { skipping, full, gaps: changeDriven.gaps },
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
