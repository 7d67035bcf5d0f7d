/**
 * Shared by `sync` and `backfill`: choose the workspaces, open, run with progress, summarise,
 * close, one path for one workspace or many. Several workspaces run at once in this process
 * (docs/architecture.md#many-workspaces), each with its own client (its key, its rate limiter:
 * each workspace has its own request budget), its own destination connection and its own
 * lock; one summary lists them all and the exit code is the worst of theirs.
 */
import { loadConfig } from '../config/load-config.ts';
import type { Workspace } from '../config/workspaces.ts';
import { createClientStats } from '../client/client-stats.ts';
import { AivisError, ExitCode } from '../errors.ts';
import { createLogger } from '../log/logger.ts';
import { terminalLine } from '../log/inert-text.ts';
import { redact } from '../log/redact.ts';
import { RunCounters } from '../sync/run-counters.ts';
import { runCommand, SYNC_MODE } from '../run/run-mode.ts';
import type { RunSyncOptions } from '../sync/run-sync-options.ts';
import { ensureSyncTables, runSync, type RunSummary } from '../sync/run-sync.ts';
import { startProgressDisplay } from './progress-display.ts';
import { type CommandResources, openCommandResources } from './command-resources.ts';
import { formatRunSummary } from './run-summary.ts';
import { listenForStop } from './stop-signal.ts';
import { type ObservedRun, observeRun } from './run-observation.ts';
import { lineageSettings } from '../lineage/lineage-settings.ts';
import { selectWorkspaces, type WorkspaceSelection } from './workspace-selection.ts';

type SyncChoices = Omit<
  RunSyncOptions,
  'config' | 'client' | 'destination' | 'stateStore' | 'logger' | 'counters' | 'workspace' | 'lineageRunId'
>;

/** Exit codes from best to worst: the command exits with its worst workspace's. */
const SEVERITY: readonly ExitCode[] = [
  ExitCode.Success,
  ExitCode.Stale,
  ExitCode.Partial,
  ExitCode.Usage,
  ExitCode.Failure,
  ExitCode.StoppedBySigint,
  ExitCode.StoppedBySigterm,
];

export function worstExitCode(codes: readonly ExitCode[]): ExitCode {
  return codes.reduce(
    (worst, code) => (SEVERITY.indexOf(code) > SEVERITY.indexOf(worst) ? code : worst),
    ExitCode.Success,
  );
}

export async function executeSync(
  argv: { config?: string },
  selection: WorkspaceSelection,
  choices: SyncChoices,
): Promise<ExitCode> {
  // Only the selected workspaces' keys are read: another workspace's secret may be absent from this pod.
  const loaded = await loadConfig(argv.config, process.env, createLogger(), (names) =>
    selectWorkspaces(
      names.map((name) => ({ name })),
      selection,
    ).map((w) => w.name),
  );
  const selected = selectWorkspaces(loaded.workspaces, selection);
  const verb = runCommand(choices.mode ?? SYNC_MODE);
  const lineage = lineageSettings(loaded);
  if (selected.length === 0) {
    // Only a shard comes out empty (--workspace names at least one known workspace): a pod of
    // an Indexed Job with more shards than workspaces has nothing to do, and that is success.
    const shard = `${selection.shard?.index}/${selection.shard?.count}`;
    const names = loaded.workspaces.map((w) => w.name).join(', ');
    createLogger().info(`--shard ${shard} selects none of the config's workspaces (${names}): nothing to ${verb}`);
    return ExitCode.Success;
  }
  // A stop ends the requests in flight and every wait at once; the pages already read are
  // committed with their state, the run rows say `stopped`, the locks are released.
  const stop = listenForStop(
    (signal) => `stopped by ${signal}: every page read before it is saved, and the next run resumes from there`,
  );
  /** Lineage and metrics of one workspace's run; without resources when they could not be opened. */
  const observe = (resources: CommandResources | undefined, workspace: Workspace, counters: RunCounters) =>
    observeRun({
      config: loaded.config,
      lineage,
      workspace: workspace.name,
      baseUrl: workspace.source.base_url,
      command: verb,
      streams: choices.streams,
      counters,
      ...(resources
        ? { destination: resources.destination, clientStats: resources.client.stats, logger: resources.logger }
        : { clientStats: createClientStats(), logger: createLogger() }),
    });
  const opened: CommandResources[] = [];
  /**
   * What fails before any run starts (a destination that cannot be opened, the shared tables
   * that cannot be created) fails every workspace's run: lineage and metrics say so too.
   * `resources` are the workspaces' own when they were all opened.
   */
  const failEveryRun = async (error: unknown, resources: readonly CommandResources[] = []): Promise<never> => {
    await Promise.all(
      selected.map((workspace, i) =>
        observe(resources[i], workspace, new RunCounters()).finish({ error, signal: stop.signal }),
      ),
    );
    throw error;
  };
  try {
    try {
      for (const workspace of selected)
        opened.push(await openCommandResources(loaded.config, workspace, verb, { signal: stop.signal }));
    } catch (error) {
      await failEveryRun(error);
    }
    const [first] = opened as [CommandResources];
    for (const warning of first.destination.configWarnings?.() ?? []) first.logger.warn(`destination: ${warning}`);
    const onStop = () =>
      first.logger.warn('stop requested: committing the pages already read, then exiting', {
        reason: (stop.signal.reason as Error).message,
      });
    stop.signal.addEventListener('abort', onStop, { once: true });
    // Created once, before the runs start: several workspaces' runs would otherwise race on one schema's DDL.
    await ensureSyncTables(first.destination, loaded.config, choices.streams).catch((error) =>
      failEveryRun(error, opened),
    );
    const runs = selected.map((workspace, i) => ({ workspace, resources: opened[i] as CommandResources }));
    return await runWorkspaces(runs, choices, stop.signal, (run, counters) =>
      observe(run.resources, run.workspace, counters),
    );
  } finally {
    stop.dispose();
    for (const resources of opened.reverse()) await resources.close();
  }
}

/** One workspace's run: the workspace and what was opened for it. */
interface WorkspaceRun {
  readonly workspace: Workspace;
  readonly resources: CommandResources;
}

/** Starts a run's lineage and metrics (run-observation.ts) on the counters the run will fill. */
type Observe = (run: WorkspaceRun, counters: RunCounters) => ObservedRun;

/** How one workspace's run ended: its summary, or the error that ended it. */
type Outcome = { readonly summary: RunSummary } | { readonly error: unknown };

/**
 * Runs every workspace at once, one progress line over all of them, and prints each summary in
 * the order of the config. A failed workspace does not stop the others; the command exits with
 * the worst exit code, or with the stop once the runs it ended are reported. A lone workspace's
 * failure is the command's failure (`main` reports it, as for any command); among several, each
 * failure gets its own line naming its workspace.
 */
async function runWorkspaces(
  runs: readonly WorkspaceRun[],
  choices: SyncChoices,
  signal: AbortSignal,
  observe: Observe,
): Promise<ExitCode> {
  const counted = runs.map((run) => ({ ...run, counters: new RunCounters() }));
  const stopProgress = startProgressDisplay(
    counted.map(({ counters, resources }) => ({ counters, stats: resources.client.stats })),
  );
  let outcomes: Outcome[];
  try {
    outcomes = await Promise.all(
      counted.map((run) =>
        observedRunSync(run.resources, choices, signal, run.counters, () => observe(run, run.counters)).then(
          (summary) => ({ summary }),
          (error: unknown) => ({ error }),
        ),
      ),
    );
  } finally {
    stopProgress();
  }
  const lone = outcomes.length === 1 ? outcomes[0] : undefined;
  if (lone && 'error' in lone) throw lone.error;
  const stoppedBy = (outcome: Outcome) => 'error' in outcome && signal.aborted && outcome.error === signal.reason;
  const codes = outcomes.map((outcome, i) => {
    const { workspace, resources } = runs[i] as WorkspaceRun;
    if ('summary' in outcome) {
      report(resources, outcome.summary);
      return outcome.summary.exitCode;
    }
    // A run the stop ended is reported by the stop itself, thrown below.
    return stoppedBy(outcome)
      ? ExitCode.Failure
      : reportFailure(workspace, resources, runCommand(choices.mode ?? SYNC_MODE), outcome.error);
  });
  const stopped = outcomes.find(stoppedBy);
  if (stopped && 'error' in stopped) throw stopped.error;
  return worstExitCode(codes);
}

/**
 * `runSync` between its observation's start and finish: the observation sees the summary, or
 * the error (a stop by `signal` is an ABORT), and never changes what the run returns or throws.
 */
async function observedRunSync(
  resources: CommandResources,
  choices: SyncChoices,
  signal: AbortSignal,
  counters: RunCounters,
  observe: () => ObservedRun,
): Promise<RunSummary> {
  const observed = observe();
  let summary: RunSummary;
  try {
    summary = await runSync({ ...resources, ...choices, counters, signal, lineageRunId: observed.lineageRunId });
  } catch (error) {
    await observed.finish({ error, signal });
    throw error;
  }
  await observed.finish({ summary, signal });
  return summary;
}

/** One failed workspace among several: a line on stdout naming it, an error log line; its exit code. */
function reportFailure(workspace: Workspace, resources: CommandResources, verb: string, error: unknown): ExitCode {
  const exitCode = error instanceof AivisError ? error.exitCode : ExitCode.Failure;
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(`${terminalLine(redact(`aivis ${verb} workspace ${workspace.name}: failed: ${message}`))}\n`);
  resources.logger.error(message, { workspace: workspace.name, exit_code: exitCode });
  return exitCode;
}

function report(resources: CommandResources, summary: RunSummary): void {
  const { counters } = summary;
  const { type, location } = resources.destination;
  const destination = location ? `${type} ${location}` : type;
  process.stdout.write(`${redact(formatRunSummary(summary, resources.client.stats, destination))}\n`);
  resources.logger.info('run finished', {
    run_id: summary.runId,
    workspace: summary.workspace,
    status: summary.status,
    rows: counters.rows,
    rejected: counters.rejected,
    failed_websites: counters.failedWebsites.length,
    requests: resources.client.stats.requests,
  });
}
