/**
 * Figure 7: rows per minute with W workspaces synced at once in one process, over W times the
 * rows per minute of one workspace alone (issue 15). Each workspace has a sandbox of its own
 * enforcing the spec's 100 requests/min, and a client at `budget` with its own limiter, as
 * `aivis sync` builds them; all share one clock running `factor` times faster than the wall
 * (scaled-clock.ts), so the budgets bind in seconds. A workspace's rate is its rows over the
 * minutes from the common start to its own end; the figure is the mean of those rates over the
 * rate of one workspace alone. Every seed needs the same requests (its rows differ by under
 * 1 %), so at the budget each takes the time of the one alone: at 1.0 the process adds nothing
 * of its own, every workspace moving as fast as its budget lets it, whatever the others do.
 */
import { ApiClient } from '../../src/client/api-client.ts';
import type { Clock } from '../../src/client/clock.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { syncTables } from '../../src/sync/run-sync.ts';
import { atLeast, round, worldInputs, type BenchFigure } from './bench-figure.ts';
import { benchConfig, openPostgres, syncOnce } from './bench-sync.ts';
import { scaledClock } from './scaled-clock.ts';

const MINUTE = 60_000;
const API_LIMIT = 100;

interface Rate {
  readonly rows: number;
  readonly minutes: number;
  /** Requests its sandbox counted. */
  readonly requests: number;
}

const perMinute = (rate: Rate) => rate.rows / rate.minutes;

/** Syncs `count` workspaces (seeds `seed`, `seed + 1`, ...) at once into one schema; each one's rows, and minutes of clock time from the common start to its end. */
async function syncWorkspaces(
  databaseUrl: string,
  sandboxOptions: SandboxOptions,
  count: number,
  budget: number,
  clock: Clock,
): Promise<Rate[]> {
  const sandboxes: Sandbox[] = [];
  const opened: { close(): Promise<void> }[] = [];
  try {
    for (let i = 0; i < count; i++)
      sandboxes.push(
        await startSandbox({
          ...sandboxOptions,
          seed: (sandboxOptions.seed ?? 1) + i,
          requestsPerMinute: API_LIMIT,
          now: clock.now,
        }),
      );
    const runs = await Promise.all(
      sandboxes.map(async (sandbox, i) => {
        const destination = await openPostgres(databaseUrl);
        const client = new ApiClient({
          baseUrl: sandbox.baseUrl,
          apiKey: sandbox.apiKey,
          requestsPerMinute: budget,
          clock,
        });
        opened.push(destination, client);
        const config = benchConfig(
          { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, databaseUrl },
          { requests_per_minute: budget },
        );
        return { config, client, destination, workspace: `w${i}` };
      }),
    );
    // As `aivis sync` does: the tables once, then every workspace at once.
    await runs[0]!.destination.ensureTables(syncTables(runs[0]!.config));
    const start = clock.now();
    return await Promise.all(
      runs.map(async (run, i) => {
        const summary = await syncOnce({ ...run, now: () => new Date(clock.now()) });
        const minutes = (clock.now() - start) / MINUTE;
        return { rows: summary.counters.rows, minutes, requests: sandboxes[i]!.stats.requests };
      }),
    );
  } finally {
    for (const resource of opened) await resource.close();
    for (const sandbox of sandboxes) await sandbox.close();
  }
}

export async function workspaceScale(
  database: (name: string) => Promise<string>,
  sandboxOptions: SandboxOptions,
  workspaces: number,
  budget: number,
  factor: number,
): Promise<BenchFigure> {
  const clock = scaledClock(factor);
  const [one] = await syncWorkspaces(await database('workspace_one'), sandboxOptions, 1, budget, clock);
  const many = await syncWorkspaces(await database('workspace_many'), sandboxOptions, workspaces, budget, clock);
  const oneRate = perMinute(one!);
  const rates = many.map(perMinute);
  const meanRate = rates.reduce((sum, rate) => sum + rate, 0) / workspaces;
  const value = round(meanRate / oneRate);
  // The figure's first definition: the rows of all over the minutes of the slowest.
  const allRows = many.reduce((sum, rate) => sum + rate.rows, 0);
  const slowest = Math.max(...many.map((rate) => rate.minutes));
  const requestRate = (rate: Rate) => round(rate.requests / rate.minutes, 1);
  return {
    key: 'workspace_scale',
    figure: `Rows/min with ${workspaces} workspaces in one process / ${workspaces} x one workspace`,
    value,
    ...atLeast(0.95)(value),
    measured: `${round(meanRate)} rows/min a workspace (${round(Math.min(...rates))} to ${round(Math.max(...rates))}; ${round(Math.min(...many.map((r) => r.minutes)), 2)} to ${round(slowest, 2)} min; ${round(Math.min(...many.map(requestRate)), 1)} to ${round(Math.max(...many.map(requestRate)), 1)} requests/min) vs ${round(oneRate)} rows/min alone (${one!.rows} rows, ${one!.requests} requests in ${round(one!.minutes, 2)} min: ${requestRate(one!)} requests/min); all rows over the slowest's minutes: ${round(allRows / slowest / (workspaces * oneRate))}`,
    inputs: `${workspaces} workspaces, each: budget ${budget}/min, API limit ${API_LIMIT}/min, ${worldInputs(sandboxOptions)} (seeds from ${sandboxOptions.seed}: the same requests each, rows within 1 %); a workspace's rate: its rows over the minutes from the common start to its end; clock x${factor}`,
    detail: {
      workspaces,
      budget,
      clockFactor: factor,
      one: { rows: one!.rows, requests: one!.requests, minutes: round(one!.minutes, 3) },
      many: many.map((rate) => ({ rows: rate.rows, requests: rate.requests, minutes: round(rate.minutes, 3) })),
      allRowsOverSlowest: round(allRows / slowest / (workspaces * oneRate)),
    },
  };
}
