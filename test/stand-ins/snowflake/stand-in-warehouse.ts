/**
 * A warehouse's running time, as Snowflake bills it: a statement that needs compute (DML, a
 * query that reads a table) resumes a suspended warehouse; the warehouse runs until it has
 * been idle for AUTO_SUSPEND seconds (60 here, the smallest Snowflake recommends and a common
 * setting), and each resume bills at least 60 seconds. DDL, SHOW, USE, ALTER SESSION,
 * transaction control and queries that read no table run in cloud services and need no warehouse.
 */

/** Seconds of idleness after which the warehouse suspends (`AUTO_SUSPEND = 60`). */
export const AUTO_SUSPEND_SECONDS = 60;
/** Snowflake bills at least this many seconds per resume. */
export const MINIMUM_BILLED_SECONDS = 60;

const COMPUTE = /^\s*(?:INSERT|UPDATE|DELETE|MERGE)\b/i;
const QUERY = /^\s*(?:SELECT|WITH)\b/i;

/** Whether `sqlText` needs a running warehouse. */
export function needsWarehouse(sqlText: string): boolean {
  const code = sqlText.replace(/'(?:[^']|'')*'/g, "''");
  return COMPUTE.test(code) || (QUERY.test(code) && /\bFROM\b/i.test(code));
}

export class WarehouseMeter {
  readonly #now: () => number;
  #resumes = 0;
  #closedSeconds = 0;
  #billedSeconds = 0;
  #runningFrom: number | undefined;
  #busyUntil = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** The meter's time (epoch ms). */
  now(): number {
    return this.#now();
  }

  /** Records a statement that needed the warehouse, from `start` to `end` (epoch ms). */
  use(start: number, end: number): void {
    if (this.#runningFrom === undefined || start > this.#suspendsAt()) {
      this.#closeInterval();
      this.#resumes += 1;
      this.#runningFrom = start;
    }
    this.#busyUntil = Math.max(this.#busyUntil, end);
  }

  /** Times the warehouse was resumed. */
  get resumes(): number {
    return this.#resumes;
  }

  /** Seconds the warehouse has run up to now (a running interval counts up to now or its suspension). */
  runningSeconds(): number {
    if (this.#runningFrom === undefined) return this.#closedSeconds;
    return this.#closedSeconds + (Math.min(this.#now(), this.#suspendsAt()) - this.#runningFrom) / 1000;
  }

  /** Seconds billed once every interval has ended: each at least a minute. */
  billedSeconds(): number {
    const open = this.#runningFrom === undefined ? 0 : (this.#suspendsAt() - this.#runningFrom) / 1000;
    return this.#billedSeconds + (this.#runningFrom === undefined ? 0 : Math.max(MINIMUM_BILLED_SECONDS, open));
  }

  #suspendsAt(): number {
    return this.#busyUntil + AUTO_SUSPEND_SECONDS * 1000;
  }

  #closeInterval(): void {
    if (this.#runningFrom === undefined) return;
    const seconds = (this.#suspendsAt() - this.#runningFrom) / 1000;
    this.#closedSeconds += seconds;
    this.#billedSeconds += Math.max(MINIMUM_BILLED_SECONDS, seconds);
    this.#runningFrom = undefined;
  }
}
