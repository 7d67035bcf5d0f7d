/**
 * Figure 9: seconds the Snowflake warehouse runs during a rate-limited incremental sync, over
 * the run's wall time. A sync bound by the API mostly waits; what the warehouse bills should
 * follow the rows loaded, not the run's length. The real connector and driver against the
 * Snowflake stand-in, whose meter (test/stand-ins/snowflake/stand-in-warehouse.ts) resumes the
 * warehouse for each statement that needs compute and suspends it after 60 idle seconds
 * (AUTO_SUSPEND = 60), each resume billed at least a minute. The sandbox's limiter, the client,
 * the engine's flush clock, the run lock's lease and renewal timer, and the meter share one
 * clock running `factor` times faster than the wall (scaled-clock.ts); a statement lasts on
 * the meter what it really took on the stand-in. The run before the measured one
 * (the full sync) is setup; the measured run reads the world a few hours on: little new data.
 * The 'worst case' shape is a world whose run lasts just longer than one flush interval: a
 * resume at the start, one for the timed flush and one at the end, in little more than the
 * interval.
 */
import { createSnowflakeDestination } from '../../connectors/snowflake/index.ts';
import { ApiClient } from '../../src/client/api-client.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startSandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { DATABASE, LOADER, WAREHOUSE } from '../stand-ins/snowflake/stand-in-fixture.ts';
import { startSnowflakeStandIn } from '../stand-ins/snowflake/snowflake-stand-in.ts';
import { atMost, round, worldInputs, type BenchFigure } from './bench-figure.ts';
import { benchConfig, syncOnce } from './bench-sync.ts';
import { scaledClock } from './scaled-clock.ts';

const API_LIMIT = 100;

export async function snowflakeWarehouseTime(
  world: SandboxOptions,
  budget: number,
  factor: number,
  shape: 'typical' | 'worst case' = 'typical',
): Promise<BenchFigure> {
  const clock = scaledClock(factor);
  const standIn = await startSnowflakeStandIn({
    users: [LOADER],
    databases: [DATABASE],
    warehouses: [WAREHOUSE],
    warehouseClock: clock.now,
  });
  const sandbox = await startSandbox({ ...world, requestsPerMinute: API_LIMIT, now: clock.now });
  const target = {
    type: 'snowflake',
    account: 'bench',
    username: LOADER.name,
    password: LOADER.password,
    warehouse: WAREHOUSE,
    database: DATABASE,
    schema: 'AIVIS',
    access_url: standIn.url,
    allow_insecure_http: true,
  } as const;
  const destination = createSnowflakeDestination(target, {
    logger: silentLogger,
    now: () => new Date(clock.now()),
    repeat: (ms, fire) => {
      let stop = clock.deadline(ms, function again() {
        fire();
        stop = clock.deadline(ms, again);
      });
      return () => stop();
    },
  });
  const client = new ApiClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, requestsPerMinute: budget, clock });
  try {
    await destination.open();
    const config = benchConfig(
      { baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, destination: target },
      { requests_per_minute: budget },
    );
    const run = () => syncOnce({ config, client, destination, now: () => new Date(clock.now()) });
    await run();
    sandbox.clock.advance({ hours: 6 });
    // The setup run's warehouse suspends before the measured run starts.
    await clock.sleep(120_000);
    const before = { billed: standIn.warehouse.billedSeconds(), resumes: standIn.warehouse.resumes };
    const start = clock.now();
    const summary = await run();
    const wallSeconds = (clock.now() - start) / 1000;
    // Billed includes the minute the warehouse idles after the run's last statement.
    const running = standIn.warehouse.billedSeconds() - before.billed;
    const resumes = standIn.warehouse.resumes - before.resumes;
    const value = round(running / wallSeconds);
    const interval = destination.capabilities.maxSecondsPerFlush;
    const worst = shape === 'worst case';
    return {
      key: worst ? 'snowflake_warehouse_time_worst_case' : 'snowflake_warehouse_time',
      figure: `Snowflake warehouse-running seconds per run / the run’s wall time, rate-limited incremental sync${worst ? ', a run just longer than one flush interval' : ''}`,
      value,
      ...atMost(0.25)(value),
      measured: `${round(running)} s running (${resumes} resumes) in a run of ${round(wallSeconds)} s (${round(wallSeconds / interval, 2)} flush intervals); ${summary.counters.rows} rows in ${summary.counters.flushes} flushes, ${sandbox.stats.requests} requests in both runs`,
      inputs: `${worldInputs(world)}, data clock +6 h after a full sync; budget ${budget}/min, API limit ${API_LIMIT}/min; AUTO_SUSPEND 60 s; flush_interval_seconds default (${interval}); clock x${factor}`,
      detail: { runningSeconds: round(running), wallSeconds: round(wallSeconds), resumes, budget, factor },
    };
  } finally {
    await client.close();
    await destination.close();
    await sandbox.close();
    await standIn.close();
  }
}
