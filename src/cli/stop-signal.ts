/**
 * SIGTERM (Kubernetes, Airflow) and SIGINT (Ctrl-C) as an AbortSignal. The API client takes
 * it, so the request in flight, a retry's backoff, a wait for the rate budget and a receipt
 * poll all end at once; the command then saves what is ready and exits with the signal's
 * reason, an AivisError exiting 130 (SIGINT) or 143 (SIGTERM). A second signal ends the process
 * the default way.
 */
import { AivisError, ExitCode } from '../errors.ts';

export interface StopSignal {
  readonly signal: AbortSignal;
  /** Stops listening; call it when the command is done. */
  dispose(): void;
}

/** @param reason the message the command ends with, e.g. `stopped by SIGTERM: ...` */
export function listenForStop(reason: (signal: NodeJS.Signals) => string): StopSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) =>
    controller.abort(
      new AivisError(reason(signal), signal === 'SIGINT' ? ExitCode.StoppedBySigint : ExitCode.StoppedBySigterm),
    );
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    },
  };
}
