/**
 * The OpenLineage events of one run and workspace (docs/architecture.md#lineage-and-metrics):
 * `START` when it begins, then one of `COMPLETE`, `FAIL` (with the `errorMessage` facet) or
 * `ABORT` (stopped by a signal), all with one `runId`.
 *
 * Lineage never costs the run: events are sent in the background, in order; one that fails or
 * takes longer than the transport's timeout (http: `timeout`, default 5 s) is a warning. Only
 * the run's end waits, for its last event, and no longer than that timeout after START settled.
 * A stop (SIGTERM) is handled by the run at once whatever lineage is doing, and afterwards
 * lineage gets `STOP_GRACE_MS` in all before its connections are cut.
 */
import type { Logger } from '../log/logger.ts';
import { redact } from '../log/redact.ts';
import type { DatasetName } from './dataset-names.ts';
import { createLineageTransport } from './lineage-transport.ts';
import type { LineageSettings } from './lineage-settings.ts';
import { type OutputTable, runEvent, type RunEventType } from './run-event.ts';

export interface LineageRunOptions {
  /** Undefined: lineage is off and the run's events go nowhere. */
  readonly settings: LineageSettings | undefined;
  readonly logger: Logger;
  /** aivis's version, for `producer`. */
  readonly version: string;
  /** The run's UUID (also in its `_aivis_runs` row). */
  readonly runId: string;
  /** `<workspace>.<command>`, e.g. `default.sync`. */
  readonly jobName: string;
  readonly inputs: readonly DatasetName[];
  /** What the run is about to write (no row counts yet). */
  readonly outputs: readonly OutputTable[];
  readonly now?: () => Date;
}

export interface LineageEnd {
  readonly eventType: Exclude<RunEventType, 'START'>;
  /** What the run wrote, with the rows it upserted into each. */
  readonly outputs: readonly OutputTable[];
  /** FAIL: why (redacted again here: no secret leaves in an event). */
  readonly errorMessage?: string;
}

export interface LineageRun {
  /** Sends FAIL/COMPLETE/ABORT and closes the transport; never throws. */
  finish(end: LineageEnd): Promise<void>;
}

/** After a stop (SIGTERM, Ctrl-C) lineage gets this long in all: the process is being asked to exit. */
export const STOP_GRACE_MS = 1_000;

/** Sends START (in the background) and returns the run whose `finish` sends its last event. */
export function startLineageRun(options: LineageRunOptions): LineageRun {
  const { settings, logger } = options;
  if (!settings) return { finish: async () => {} };
  const transport = createLineageTransport(settings.target, logger);
  const now = options.now ?? (() => new Date());
  const job = { namespace: settings.namespace, name: options.jobName };
  const timeoutMs = settings.target.type === 'http' ? settings.target.timeoutMs : undefined;
  let finished = false;
  const emit = async (
    eventType: RunEventType,
    outputs: readonly OutputTable[],
    limitMs = timeoutMs,
    errorMessage?: string,
  ) => {
    const event = runEvent({
      eventType,
      eventTime: now(),
      runId: options.runId,
      job,
      inputs: options.inputs,
      outputs,
      version: options.version,
      ...(errorMessage === undefined ? {} : { errorMessage: redact(errorMessage) }),
    });
    try {
      await transport.send(event, limitMs);
    } catch (error) {
      // A send cut short by the run's own end was already accounted for there.
      if (!finished) warnUndelivered(logger, event, settings.target, describeFailure(error, limitMs));
    }
  };
  const started = emit('START', options.outputs);
  return {
    async finish(end) {
      if (end.eventType !== 'ABORT') {
        await started;
        await emit(end.eventType, end.outputs, timeoutMs, end.errorMessage);
        finished = true;
        await transport.close().catch(() => undefined);
        return;
      }
      // A stop: START may still hang; ABORT gets what is left of the grace, and then the
      // connections are cut whatever lineage is doing.
      const deadline = Date.now() + STOP_GRACE_MS;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STOP_GRACE_MS)));
      const last = started.then(() =>
        emit('ABORT', end.outputs, Math.max(1, Math.min(timeoutMs ?? STOP_GRACE_MS, deadline - Date.now()))),
      );
      const outcome = await Promise.race([last.then(() => 'sent' as const), late]);
      clearTimeout(timer);
      finished = true;
      if (outcome === 'late')
        logger.warn('OpenLineage event not delivered; the run goes on without it', {
          event_type: 'ABORT',
          run_id: options.runId,
          target: targetName(settings.target),
          error: `the endpoint had not answered START ${STOP_GRACE_MS / 1000} s after the stop`,
        });
      await transport.destroy();
    },
  };
}

function targetName(target: LineageSettings['target']): string {
  return target.type === 'http' ? target.url.href : target.type === 'file' ? target.path : 'the console';
}

function describeFailure(error: unknown, limitMs: number | undefined): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') && limitMs !== undefined)
    return `no answer within ${limitMs / 1000} s`;
  return error instanceof Error ? error.message : String(error);
}

/** An event's failure is a warning naming the target and why, never the event's content. */
function warnUndelivered(
  logger: Logger,
  event: Record<string, unknown>,
  target: LineageSettings['target'],
  why: string,
): void {
  logger.warn('OpenLineage event not delivered; the run goes on without it', {
    event_type: event.eventType,
    run_id: (event.run as { runId: string }).runId,
    target: targetName(target),
    error: why,
  });
}

/** The last event of a run that threw: ABORT when `signal` stopped it, else FAIL with the error's message. */
export function failedEnd(error: unknown, signal: AbortSignal, outputs: readonly OutputTable[]): LineageEnd {
  if (signal.aborted && error === signal.reason) return { eventType: 'ABORT', outputs };
  return { eventType: 'FAIL', outputs, errorMessage: error instanceof Error ? error.message : String(error) };
}

/**
 * Runs `work` between a lineage run's START (already sent) and its last event: `end` says
 * what a finished run wrote; a run that threw ends as `failedEnd` says, with `outputs`
 * (their row counts unknown), and its error is thrown on.
 */
export async function withLineage<T>(
  lineage: LineageRun,
  signal: AbortSignal,
  outputs: readonly OutputTable[],
  work: () => Promise<T>,
  end: (result: T) => LineageEnd,
): Promise<T> {
  let result: T;
  try {
    result = await work();
  } catch (error) {
    await lineage.finish(failedEnd(error, signal, outputs));
    throw error;
  }
  await lineage.finish(end(result));
  return result;
}
