/**
 * Figure 5: rows/s of a full sync, sandbox -> Postgres, with the API's rate limit off (the
 * sandbox in a process of its own, the client at the config's ceiling of 6000/min), and the
 * share of the syncing thread's wall time spent waiting on the API, parsing, validating and
 * loading (see time-shares.ts). The destination is observed by wrapping `commit`, the thread
 * by the V8 sampling profiler; no product code is changed for either.
 */
import { Session } from 'node:inspector/promises';
import type { Profiler } from 'node:inspector';
import type { SandboxOptions } from '../../src/sandbox/index.ts';
import { ApiClient } from '../../src/client/api-client.ts';
import type { Destination } from '../../src/destination/destination.ts';
import { round, worldInputs, type BenchFigure } from './bench-figure.ts';
import { benchConfig, openPostgres, syncOnce } from './bench-sync.ts';
import { spawnSandbox } from './sandbox-child.ts';
import { timeShares } from './time-shares.ts';

const micros = () => Number(process.hrtime.bigint() / 1000n);

/** The destination, with the interval of every commit recorded (in profile microseconds). */
function observeCommits(destination: Destination, commits: [number, number][]): Destination {
  return {
    ...destination,
    async commit(parts) {
      const start = micros();
      try {
        return await destination.commit(parts);
      } finally {
        commits.push([start, micros()]);
      }
    },
  };
}

export async function endToEnd(databaseUrl: string, sandboxOptions: SandboxOptions): Promise<BenchFigure> {
  const sandbox = await spawnSandbox({ ...sandboxOptions, requestsPerMinute: 0 });
  const commits: [number, number][] = [];
  const destination = observeCommits(await openPostgres(databaseUrl), commits);
  const client = new ApiClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, requestsPerMinute: 6000 });
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    const start = performance.now();
    const summary = await syncOnce({ config: benchConfig({ ...sandbox, databaseUrl }), client, destination });
    const seconds = (performance.now() - start) / 1000;
    const { profile } = (await session.post('Profiler.stop')) as { profile: Profiler.Profile };
    const shares = timeShares(profile, commits);
    const rows = summary.counters.rows;
    const value = Math.round(rows / seconds);
    const pct = (share: number) => `${Math.round(share * 100)}%`;
    return {
      key: 'end_to_end',
      figure: 'End-to-end full sync, sandbox -> Postgres (rows/s)',
      value,
      target: 'informational',
      met: true,
      measured:
        `${rows} rows in ${round(seconds, 1)} s, ${client.stats.requests} requests; ` +
        `API wait ${pct(shares.api_wait)}, HTTP client ${pct(shares.http)}, parse ${pct(shares.parse)}, validate+map ${pct(shares.validate)}, load ${pct(shares.load)}, GC ${pct(shares.gc)}, other ${pct(shares.other)}`,
      inputs: `${worldInputs(sandboxOptions)}; all streams; 4 websites at once; page 500; flush 5000 rows; API limit off, client 6000/min`,
      detail: {
        rows,
        seconds: round(seconds, 2),
        requests: client.stats.requests,
        flushes: summary.counters.flushes,
        shares: Object.fromEntries(Object.entries(shares).map(([k, v]) => [k, round(v)])),
      },
    };
  } finally {
    session.disconnect();
    await client.close();
    await destination.close();
    await sandbox.close();
  }
}
