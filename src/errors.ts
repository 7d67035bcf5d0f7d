/**
 * Errors a user sees, each tied to its exit code (docs/architecture.md#cli):
 * 0 success, 1 failure, 2 bad config or usage, 3 finished with rejected records or failed
 * websites (and `verify` found differences), 4 `status` found a stream older than
 * `--max-staleness` or a failed last run, 130 stopped by SIGINT and 143 by SIGTERM (128 + the
 * signal's number, what a shell reports for a process the signal ended: a scheduler reads a
 * stop as a stop, and what was read is committed).
 */

export const ExitCode = {
  Success: 0,
  Failure: 1,
  Usage: 2,
  Partial: 3,
  Stale: 4,
  StoppedBySigint: 130,
  StoppedBySigterm: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Base of every error that carries its own user-facing message and exit code. */
export class AivisError extends Error {
  readonly exitCode: ExitCode;
  constructor(message: string, exitCode: ExitCode = ExitCode.Failure, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
  }
}

/** Bad config file, bad flag, bad input file: exit 2. */
export class ConfigError extends AivisError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.Usage, options);
  }
}

/** The destination refused or failed an operation; the message says what to fix. */
export class DestinationError extends AivisError {}

/**
 * What `aivis check` found the configured identity lacks for a sync, all of it at once: a summary
 * (who lacks how many privileges, and who may grant them) and one ready-to-run statement per
 * object (docs/troubleshooting.md#permission-denied).
 */
export class MissingPrivilegesError extends DestinationError {
  readonly summary: string;
  readonly fixes: readonly string[];
  /**
   * Tables of the check's scope that exist and that the identity may not alter (it does not own
   * them): until a fix runs, schema evolution keeps their columns (docs/served-contract.md#permissions).
   */
  readonly unalterable: readonly string[];
  constructor(summary: string, fixes: readonly string[], unalterable: readonly string[] = []) {
    // One line for a log: each fix ends with a semicolon, as a SQL statement does.
    super(`${summary}: ${fixes.map((fix) => (fix.endsWith(';') ? fix : `${fix};`)).join(' ')}`);
    this.summary = summary;
    this.fixes = fixes;
    this.unalterable = unalterable;
  }
}

/** Another run holds the destination's run lock. */
export class LockHeldError extends AivisError {}
