/**
 * Figure 2: how much of a binding rate budget a sync uses. The client (its `clock` option)
 * and the sandbox's rate limiter (its `now` option) share one clock running `factor` times
 * faster than the wall, so minutes of budget pass in seconds and both ends agree on what a
 * minute is. The sandbox enforces the spec's 100 requests/min; the client runs at `budget`.
 *
 * Arrival times are recorded where the API counts them (the sandbox limiter's clock reads).
 * A sliding window lets each minute start with whatever the previous minute's starts free,
 * so the achieved rate is counted over whole minutes from the first arrival: the last,
 * partial minute would say nothing about the budget.
 */
import { ApiClient } from '../../src/client/api-client.ts';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { atLeast, round, worldInputs, type BenchFigure } from './bench-figure.ts';
import { benchConfig, openPostgres, syncOnce } from './bench-sync.ts';
import { scaledClock } from './scaled-clock.ts';

const MINUTE = 60_000;
const API_LIMIT = 100;

/** Most arrivals inside any closed 60 s window (`arrivals` sorted). */
export function busiestMinute(arrivals: readonly number[]): number {
  let most = 0;
  let first = 0;
  for (let last = 0; last < arrivals.length; last++) {
    while (arrivals[last]! - arrivals[first]! > MINUTE) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/**
 * Arrivals per minute over the whole minutes from the first arrival (`arrivals` sorted, in
 * ms); the trailing partial minute is left out. Undefined when the run spans no whole minute.
 */
export function wholeMinuteRate(arrivals: readonly number[]): { perMinute: number; minutes: number } | undefined {
  const start = arrivals[0];
  const end = arrivals[arrivals.length - 1];
  if (start === undefined || end === undefined) return undefined;
  const minutes = Math.floor((end - start) / MINUTE);
  if (minutes < 1) return undefined;
  return { perMinute: arrivals.filter((at) => at < start + minutes * MINUTE).length / minutes, minutes };
}

export async function budgetUse(
  databaseUrl: string,
  sandboxOptions: SandboxOptions,
  budget: number,
  factor: number,
): Promise<BenchFigure> {
  const clock = scaledClock(factor);
  const arrivals: number[] = [];
  const sandbox = await startSandbox({
    ...sandboxOptions,
    requestsPerMinute: API_LIMIT,
    now: () => {
      const at = clock.now();
      arrivals.push(at);
      return at;
    },
  });
  const destination = await openPostgres(databaseUrl);
  const client = new ApiClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, requestsPerMinute: budget, clock });
  try {
    const config = benchConfig(
      { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, databaseUrl },
      { requests_per_minute: budget },
    );
    await syncOnce({ config, client, destination, now: () => new Date(clock.now()) });
    arrivals.sort((a, b) => a - b);
    const rate = wholeMinuteRate(arrivals);
    if (!rate)
      throw new Error(
        `budget use: the sync took less than a minute of API time (${arrivals.length} requests); give it more websites`,
      );
    const { perMinute, minutes } = rate;
    const span = (arrivals[arrivals.length - 1]! - arrivals[0]!) / MINUTE;
    const throttled = sandbox.stats.throttled + client.stats.throttled;
    const value = round(perMinute / budget);
    return {
      key: 'budget_use',
      figure: 'Budget use (requests/min achieved / budget)',
      value,
      target: '>= 0.95, 0 429s',
      met: atLeast(0.95)(value).met && throttled === 0,
      measured: `${round(perMinute, 1)}/min over the first ${minutes} whole minutes of ${round(span, 1)} (${arrivals.length} requests), busiest minute ${busiestMinute(arrivals)}, ${throttled} 429s`,
      inputs: `budget ${budget}/min, API limit ${API_LIMIT}/min, ${worldInputs(sandboxOptions)}; clock x${factor}`,
      detail: {
        budget,
        apiLimit: API_LIMIT,
        perMinute: round(perMinute, 2),
        requests: arrivals.length,
        minutes: round(span, 2),
        busiestMinute: busiestMinute(arrivals),
        throttled,
        clockFactor: factor,
      },
    };
  } finally {
    await client.close();
    await destination.close();
    await sandbox.close();
  }
}
