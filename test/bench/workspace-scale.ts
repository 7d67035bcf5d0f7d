/**
 * Figure 7: rows per minute with W workspaces synced at once in one process, over W times the
 * rows per minute of one workspace alone (issue 15). Each workspace has a sandbox of its own
 * enforcing the spec's 100 requests/min, and a client at `budget` with its own limiter, as
 * `aivis sync` builds them; all share one clock running `factor` times faster than the wall
 * (scaled-clock.ts), so the budgets bind in seconds. At 1.0 the process adds nothing of its
 * own: every workspace moves as fast as its budget lets it, whatever the others do.
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
}

/** Syncs `count` workspaces (seeds `seed`, `seed + 1`, ...) at once into one schema; rows and minutes of clock time. */
async function syncWorkspaces(
  databaseUrl: string,
  sandboxOptions: SandboxOptions,
  count: number,
  budget: number,
  clock: Clock,
): Promise<Rate> {
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
    const summaries = await Promise.all(runs.map((run) => syncOnce({ ...run, now: () => new Date(clock.now()) })));
    const minutes = (clock.now() - start) / MINUTE;
    return { rows: summaries.reduce((sum, s) => sum + s.counters.rows, 0), minutes };
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
  const one = await syncWorkspaces(await database('workspace_one'), sandboxOptions, 1, budget, clock);
  const many = await syncWorkspaces(await database('workspace_many'), sandboxOptions, workspaces, budget, clock);
  const oneRate = one.rows / one.minutes;
  const manyRate = many.rows / many.minutes;
  const value = round(manyRate / (workspaces * oneRate));
  return {
    key: 'workspace_scale',
    figure: `Rows/min with ${workspaces} workspaces in one process / ${workspaces} x one workspace`,
    value,
    ...atLeast(0.95)(value),
    measured: `${round(manyRate)} rows/min (${many.rows} rows in ${round(many.minutes, 2)} min) vs ${round(oneRate)} rows/min alone (${one.rows} rows in ${round(one.minutes, 2)} min)`,
    inputs: `${workspaces} workspaces, each: budget ${budget}/min, API limit ${API_LIMIT}/min, ${worldInputs(sandboxOptions)} (seeds from ${sandboxOptions.seed}); clock x${factor}`,
    detail: {
      workspaces,
      budget,
      clockFactor: factor,
      one: { rows: one.rows, minutes: round(one.minutes, 3) },
      many: { rows: many.rows, minutes: round(many.minutes, 3) },
    },
  };
}
