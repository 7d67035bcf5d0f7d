/**
 * How BigQuery runs DML statements that arrive together, as its DML documentation ("Concurrent
 * jobs") and its engineering blog ("DML without limits") describe it, reduced to what the
 * connector depends on:
 * - Every job reads a snapshot taken when it starts (snapshot isolation).
 * - INSERTs never conflict, with each other or with mutating DML: two `INSERT ... WHERE NOT
 *   EXISTS` started together both insert.
 * - Mutating statements (UPDATE, DELETE, MERGE that updates or deletes) on one table: up to 2
 *   run at once, up to 20 more wait as PENDING, further ones fail ("Too many DML statements
 *   outstanding against table"). Two that ran at once and both changed the table conflict:
 *   the later one to commit is rerun on a fresh snapshot, and after its reruns are used up
 *   it fails with "Could not serialize access to table ... due to concurrent update".
 * Simplification: BigQuery detects conflicts per partition, the stand-in per table (stricter;
 * the connector never mutates one table from two jobs at once except the run lock, whose
 * table is not partitioned).
 */
import { BigqueryFault } from './stand-in-errors.ts';

/** How many mutating statements run at once on one table, and how many may wait. */
const RUNNING_PER_TABLE = 2;
const PENDING_PER_TABLE = 20;

export interface MutationTicket {
  /** True when another mutation of the table committed after this ticket's snapshot. */
  changedSince(): boolean;
  /** Waits until every other mutation running on the table has finished. */
  othersFinished(): Promise<void>;
  /** Records that this job changed the table (call after its COMMIT). */
  committedChange(): void;
  /** Takes a fresh snapshot for a rerun. */
  renew(): void;
  /** Frees the running slot (always call, committed or not). */
  finish(): void;
}

interface TableQueue {
  running: Set<Ticket>;
  pending: (() => void)[];
  /** Commit sequence of the last change to the table. */
  lastChange: number;
}

class Ticket {
  /** The commit sequence the job's snapshot saw. */
  snapshot: number;
  readonly done: Promise<void>;
  readonly #resolve: () => void;
  constructor(snapshot: number) {
    this.snapshot = snapshot;
    let resolve!: () => void;
    this.done = new Promise<void>((r) => (resolve = r));
    this.#resolve = resolve;
  }
  end(): void {
    this.#resolve();
  }
}

export class DmlScheduler {
  readonly #tables = new Map<string, TableQueue>();
  #commits = 0;
  /** Reruns after a conflict before the statement fails (BigQuery's own retries). */
  readonly reruns: number;

  constructor(reruns: number) {
    this.reruns = reruns;
  }

  /** Waits for a running slot on `table` (`project:dataset.table`) and takes a snapshot. */
  async begin(table: string): Promise<MutationTicket> {
    const queue = this.#queue(table);
    if (queue.running.size >= RUNNING_PER_TABLE) {
      if (queue.pending.length >= PENDING_PER_TABLE) {
        throw new BigqueryFault(
          400,
          'resourcesExceeded',
          `Resources exceeded during query execution: Too many DML statements outstanding against table ${table}, limit is ${PENDING_PER_TABLE}.`,
        );
      }
      await new Promise<void>((resolve) => queue.pending.push(resolve));
    }
    const ticket = new Ticket(this.#commits);
    queue.running.add(ticket);
    return {
      changedSince: () => queue.lastChange > ticket.snapshot,
      othersFinished: () =>
        Promise.all([...queue.running].filter((t) => t !== ticket).map((t) => t.done)).then(() => undefined),
      committedChange: () => {
        queue.lastChange = ++this.#commits;
      },
      renew: () => {
        ticket.snapshot = this.#commits;
      },
      finish: () => {
        if (!queue.running.delete(ticket)) return;
        ticket.end();
        queue.pending.shift()?.();
      },
    };
  }

  #queue(table: string): TableQueue {
    let queue = this.#tables.get(table);
    if (!queue) this.#tables.set(table, (queue = { running: new Set(), pending: [], lastChange: 0 }));
    return queue;
  }
}

export function serializationFailure(table: string): BigqueryFault {
  // Users report it as HTTP 400 ("BadRequest: 400 Could not serialize access to table ...").
  return new BigqueryFault(
    400,
    'invalidQuery',
    `Could not serialize access to table ${table} due to concurrent update`,
  );
}

/** DuckDB's own write-write conflict (two open transactions changing one row). */
export function isDuckdbConflict(error: unknown): boolean {
  return error instanceof Error && /Conflict on (update|tuple)|write-write conflict/i.test(error.message);
}
