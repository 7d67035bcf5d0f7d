/**
 * Snowflake's table locks for DML ("Resource locking" in Snowflake's Transactions guide): a
 * statement that writes a table holds it until its transaction ends (an autocommit statement:
 * while it runs), and another session's INSERT, UPDATE, DELETE or MERGE on that table waits:
 * - until the holder commits or rolls back, then it runs;
 * - at most the waiting session's LOCK_TIMEOUT (seconds, default 43200; 0: no wait), then it
 *   fails with error 000625;
 * - and a holder that has been idle for 5 minutes while it blocks another is aborted and
 *   rolled back by Snowflake (how a transaction left open by a killed client ends).
 * Time is the stand-in's clock, which tests move. Session-local temporary tables (unqualified
 * names here) take no lock. (Snowflake often lets INSERTs run beside other writers; the
 * stand-in serializes them too, which DuckDB's own write conflicts need.)
 */
import type { StandInClock } from './stand-in-clock.ts';
import { SnowflakeStandInError } from './snowflake-errors.ts';
import { splitSql } from './sql-rewrite.ts';

const DML_TARGET = /^\s*(?:INSERT\s+INTO|MERGE\s+INTO|UPDATE|DELETE\s+FROM)\s+(\S+)/;

/** Snowflake aborts a blocking transaction idle this long. */
export const IDLE_BLOCKER_ABORT_MS = 5 * 60_000;

/** A session as the lock table sees it. */
export interface LockingSession {
  readonly id: string;
  /** When the session's open transaction last finished a statement; undefined while one runs. */
  idleSince(): number | undefined;
  /** Rolls back the session's open transaction (Snowflake's abort of an idle blocker). */
  abortTransaction(): Promise<void>;
}

/** The statement asking for a lock. */
export interface LockRequest {
  readonly session: LockingSession;
  /** The transaction the lock belongs to (an autocommit statement's own one). */
  readonly transaction: string;
  readonly queryId: string;
  readonly lockTimeoutSeconds: number;
}

interface Holder {
  readonly session: LockingSession;
  readonly transaction: string;
  readonly queryId: string;
}

export class TableLocks {
  readonly #clock: StandInClock;
  readonly #holders = new Map<string, Holder>();
  /** Called whenever a lock is released: each waiter looks again. */
  readonly #wakers = new Set<() => void>();
  #waiting = 0;

  constructor(clock: StandInClock) {
    this.#clock = clock;
  }

  /** Statements waiting for a lock right now. */
  get waiting(): number {
    return this.#waiting;
  }

  /**
   * Takes the lock on the table `sql` writes (`sql` is the folded statement), waiting as
   * Snowflake waits; resolves once it is held, or rejects with Snowflake's lock error.
   */
  async acquire(sql: string, request: LockRequest): Promise<void> {
    const target = DML_TARGET.exec(sql)?.[1];
    if (!target) return;
    const parts = splitSql(target).map((s) => s.text);
    const table = parts.join('').replaceAll('"', '');
    if (table.split('.').length < 3) return;
    const deadline = this.#clock.now() + request.lockTimeoutSeconds * 1000;
    for (;;) {
      const holder = this.#holders.get(table);
      if (!holder || holder.session === request.session) break;
      if (this.#clock.now() >= deadline) throw lockError(table, holder);
      await this.#waitForRelease(holder, deadline);
    }
    this.#holders.set(table, { session: request.session, transaction: request.transaction, queryId: request.queryId });
  }

  /** The session's transaction or statement ended (commit, rollback, abort, session end). */
  release(session: string): void {
    for (const [table, holder] of this.#holders) if (holder.session.id === session) this.#holders.delete(table);
    this.activity();
  }

  /** A session finished a statement or let go of locks: every waiter looks at its holder again. */
  activity(): void {
    for (const wake of [...this.#wakers]) wake();
  }

  /** Returns when something changed, the deadline passed, or `holder` was aborted for idling 5 minutes. */
  async #waitForRelease(holder: Holder, deadline: number): Promise<void> {
    const idleSince = holder.session.idleSince();
    const abortIdle = async () => {
      if (holder.session.idleSince() === idleSince) await holder.session.abortTransaction();
    };
    if (idleSince !== undefined && this.#clock.now() - idleSince >= IDLE_BLOCKER_ABORT_MS) return abortIdle();
    this.#waiting++;
    try {
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.#wakers.delete(wake);
          for (const cancel of cancels) cancel();
          resolve();
        };
        const cancels = [
          this.#clock.at(deadline, wake),
          ...(idleSince === undefined
            ? []
            : [
                this.#clock.at(idleSince + IDLE_BLOCKER_ABORT_MS, async () => {
                  await abortIdle();
                  wake();
                }),
              ]),
        ];
        this.#wakers.add(wake);
      });
    } finally {
      this.#waiting--;
    }
  }
}

/** Snowflake's refusal once the wait ends unanswered (LOCK_TIMEOUT). */
function lockError(table: string, holder: Holder): SnowflakeStandInError {
  const name = table.split('.').pop();
  return new SnowflakeStandInError(
    '000625',
    '57014',
    `Statement '${holder.queryId}' has locked table '${name}' in transaction ${holder.transaction} and this lock has not yet been released.`,
  );
}
