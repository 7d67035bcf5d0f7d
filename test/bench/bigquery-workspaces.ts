/**
 * Figure 8: BigQuery jobs and bytes processed per flush when W workspaces sync into one
 * dataset at once, against one workspace alone. The real connector and SDK against the
 * BigQuery stand-in with BigQuery's own DML reruns (3): concurrent flushes of the shared
 * engine tables conflict, and what BigQuery's reruns do not absorb aivis retries (a job more,
 * its bytes billed again). The value is jobs per flush with W workspaces over jobs per flush
 * alone: 1.0 when concurrency costs no extra job. Bytes are as the stand-in bills them
 * (test/stand-ins/bigquery/stand-in-billing.ts: at least 10 MB per table a job reads).
 */
import { createBigqueryDestination } from '../../connectors/bigquery/index.ts';
import { ApiClient } from '../../src/client/api-client.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { syncTables } from '../../src/sync/run-sync.ts';
import { startBigqueryStandIn } from '../stand-ins/bigquery/bigquery-stand-in.ts';
import { fakeAuthClient } from '../stand-ins/bigquery/fake-auth.ts';
import { atMost, round, worldInputs, type BenchFigure } from './bench-figure.ts';
import { benchConfig, syncOnce } from './bench-sync.ts';

interface Usage {
  readonly flushes: number;
  readonly jobs: number;
  readonly bytes: number;
}

/** `count` workspaces (seeds from the world's) synced at once into one fresh dataset; their summed usage. */
async function syncInto(world: SandboxOptions, count: number): Promise<Usage> {
  const standIn = await startBigqueryStandIn();
  const sandboxes: Sandbox[] = [];
  const opened: { close(): Promise<void> }[] = [];
  try {
    for (let i = 0; i < count; i++)
      sandboxes.push(await startSandbox({ ...world, seed: (world.seed ?? 1) + i, requestsPerMinute: 0 }));
    const runs = await Promise.all(
      sandboxes.map(async (sandbox, i) => {
        const target = {
          type: 'bigquery',
          project: standIn.projectId,
          dataset: 'bench',
          location: 'US',
          api_endpoint: standIn.url,
        } as const;
        const destination = createBigqueryDestination(target, { logger: silentLogger, authClient: fakeAuthClient() });
        await destination.open();
        const client = new ApiClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, requestsPerMinute: 6000 });
        opened.push(destination, client);
        const config = benchConfig({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, destination: target });
        return { config, client, destination, workspace: `w${i}` };
      }),
    );
    await runs[0]!.destination.ensureTables(syncTables(runs[0]!.config));
    const summaries = await Promise.all(runs.map((run) => syncOnce(run)));
    return summaries.reduce(
      (sum, { counters }) => ({
        flushes: sum.flushes + counters.flushes,
        jobs: sum.jobs + counters.warehouseJobs,
        bytes: sum.bytes + counters.bytesProcessed,
      }),
      { flushes: 0, jobs: 0, bytes: 0 },
    );
  } finally {
    for (const resource of opened) await resource.close();
    for (const sandbox of sandboxes) await sandbox.close();
    await standIn.close();
  }
}

const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

export async function bigqueryWorkspaces(world: SandboxOptions, count: number): Promise<BenchFigure> {
  const alone = await syncInto(world, 1);
  const together = await syncInto(world, count);
  const per = (u: Usage) => ({ jobs: u.jobs / u.flushes, mb: mb(u.bytes / u.flushes) });
  const [a, t] = [per(alone), per(together)];
  const value = round(t.jobs / a.jobs);
  return {
    key: 'bigquery_workspaces',
    figure: `BigQuery jobs per flush with ${count} workspaces at once / one workspace alone`,
    value,
    ...atMost(1.1)(value),
    measured: `${round(t.jobs, 2)} jobs and ${t.mb} MB per flush (${together.flushes} flushes of ${count} workspaces) vs ${round(a.jobs, 2)} jobs and ${a.mb} MB per flush alone (${alone.flushes} flushes)`,
    inputs: `${count} workspaces into one dataset, each ${worldInputs(world)}; BigQuery stand-in with 3 DML reruns; bytes as the stand-in bills them`,
    detail: { alone, together, count },
  };
}
