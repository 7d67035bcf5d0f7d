/**
 * Snowflake's table locks for DML: a transaction that writes a table holds it until it ends,
 * and another session's INSERT, UPDATE, DELETE or MERGE on that table waits for it. A
 * transaction left open by a killed client ("detached") therefore blocks writers for hours.
 * The stand-in cannot wait that long, so it fails such a statement at once (as with
 * LOCK_TIMEOUT = 0). Session-local temporary tables (unqualified names here) take no lock.
 */
import { SnowflakeStandInError } from './snowflake-errors.ts';
import { splitSql } from './sql-rewrite.ts';

const DML_TARGET = /^\s*(?:INSERT\s+INTO|MERGE\s+INTO|UPDATE|DELETE\s+FROM)\s+(\S+)/;

interface Holder {
  readonly session: string;
  readonly transaction: string;
}

export class TableLocks {
  readonly #holders = new Map<string, Holder>();

  /**
   * Fails if another session's open transaction holds the table `sql` writes; takes the lock
   * for `transaction` when the statement runs inside one. `sql` is the folded statement.
   */
  acquire(sql: string, session: string, transaction: string | undefined): void {
    const target = DML_TARGET.exec(sql)?.[1];
    if (!target) return;
    const parts = splitSql(target).map((s) => s.text);
    const table = parts.join('').replaceAll('"', '');
    if (table.split('.').length < 3) return;
    const holder = this.#holders.get(table);
    if (holder && holder.session !== session) {
      throw new SnowflakeStandInError(
        '000625',
        '57014',
        `Statement has locked table '${table}' in transaction ${holder.transaction} and this lock has not yet been released.`,
      );
    }
    if (transaction) this.#holders.set(table, { session, transaction });
  }

  /** The session's transaction ended (commit, rollback, abort, session end). */
  release(session: string): void {
    for (const [table, holder] of this.#holders) if (holder.session === session) this.#holders.delete(table);
  }
}
