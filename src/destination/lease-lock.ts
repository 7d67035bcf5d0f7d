/**
 * The run lock as a lease, for warehouses with no session to hang an advisory lock on
 * (BigQuery, Snowflake): the `_aivis_lock` row carries when the holder's lease ends; the
 * holder takes it with one conditional UPDATE (the warehouse serializes UPDATEs of a table,
 * so two runs cannot both win), renews it while the run lives, checks it before each write
 * and ends it when done; a crashed run's lease simply expires. Written once here over the
 * few statements each warehouse runs (`LeaseStatements`); how a warehouse creates the row
 * and what else it does on taking over stays in its `<name>-lock.ts`
 * (docs/architecture.md#adding-a-destination). Times come from the injected clock, so a
 * lease's expiry is testable without waiting.
 */
import { DestinationError } from '../errors.ts';
import type { Logger } from '../log/logger.ts';
import type { DestinationLock } from './destination.ts';
import { lockTable } from './engine-tables.ts';
import { column, type TableSpec } from './table-spec.ts';

/** How long a lease lasts without renewal: how long a crashed run keeps the next one out. */
export const LEASE_MS = 10 * 60_000;

/** The shared lock row plus the lease's end: liveness is the lease, not a connection. */
export const leaseLockTable: TableSpec = {
  ...lockTable,
  columns: [
    ...lockTable.columns,
    column('expires_at', 'timestamp', false, "When the holder's lease ends unless renewed."),
  ],
};

/** The end of a lease nobody holds. */
export const LEASE_EPOCH = '1970-01-01T00:00:00.000Z';

/** The statements a warehouse runs on its lock row for this run; times are ISO-8601 text. */
export interface LeaseStatements {
  /**
   * Makes this run the holder until `expiresAt` unless another run's lease is still live at
   * `now`; true when taken. A warehouse's extra steps around it (a missing row, a detached
   * transaction of the previous holder) happen inside.
   */
  take(expiresAt: string, now: string): Promise<boolean>;
  /** Moves this run's lease end to `expiresAt`; false when the row no longer names this run. */
  renew(expiresAt: string): Promise<boolean>;
  /** Ends this run's lease (and frees whatever the warehouse held for it). */
  end(): Promise<void>;
  /** The refusal when `take` failed: who holds the lease, and until when. */
  heldError(now: Date): Promise<Error>;
}

export interface LeaseOptions {
  readonly now: () => Date;
  readonly logger: Logger;
  /** Why a holder that found its lease taken stops; "; stopping before writing more" follows. */
  readonly lostMessage: string;
  /** How long the lease lasts without renewal; default `LEASE_MS`. */
  readonly leaseMs?: number;
  /** Calls `fire` every `ms` until the returned stop runs; default an unref'd `setInterval` (tests pass their clock's). */
  readonly repeat?: (ms: number, fire: () => void) => () => void;
}

/** A held lease. `assertHeld` waits for a renewal in flight, and fails once one found the lease taken. */
export interface LeaseLock extends DestinationLock {
  assertHeld(): Promise<void>;
}

/** Takes the lease through `statements`, or throws their `heldError`. */
export async function takeLease(statements: LeaseStatements, options: LeaseOptions): Promise<LeaseLock> {
  const { now, logger } = options;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const expiresAt = () => new Date(now().getTime() + leaseMs).toISOString();
  if (!(await statements.take(expiresAt(), now().toISOString()))) throw await statements.heldError(now());

  let lost = false;
  let released = false;
  let renewing: Promise<void> = Promise.resolve();
  let renewedAt = now().getTime();
  const renew = async () => {
    if (lost) return;
    if (await statements.renew(expiresAt())) renewedAt = now().getTime();
    else {
      lost = true;
      logger.error('lost the run lock: another run took it after this run’s lease expired');
    }
  };
  const age = () => now().getTime() - renewedAt;
  // Renewals ride on the writes: a write renews a lease older than a sixth of its length, in
  // the same minute the warehouse works for the write anyway (a renewal of its own would
  // resume a suspended Snowflake warehouse for a billed minute). The timer renews only a lease
  // no write renewed for two thirds of its length, so a failed renewal still leaves time.
  const renewOnWriteMs = leaseMs / 6;
  const renewOnTimerMs = (leaseMs * 2) / 3;
  const repeat =
    options.repeat ??
    ((ms: number, fire: () => void) => {
      const timer = setInterval(fire, ms);
      timer.unref();
      return () => clearInterval(timer);
    });
  const stop = repeat(renewOnWriteMs, () => {
    if (age() < renewOnTimerMs) return;
    renewing = renew().catch((error: unknown) => logger.warn('could not renew the run lock lease', { error }));
  });

  return {
    async assertHeld() {
      await renewing;
      // Also how a paused process (or a timer that could not run) finds it outlived its lease.
      if (!lost && age() >= renewOnWriteMs) await renew();
      if (lost) throw new DestinationError(`${options.lostMessage}; stopping before writing more`);
    },
    async release() {
      if (released) return;
      released = true;
      stop();
      await statements.end();
    },
  };
}
