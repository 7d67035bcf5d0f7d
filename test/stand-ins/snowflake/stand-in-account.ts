/**
 * Statements about the whole account rather than one session: `SHOW TRANSACTIONS` and
 * `SYSTEM$ABORT_TRANSACTION`, which a connector uses to end the transaction a killed client
 * left open. (Snowflake keeps such a "detached" transaction, and its locks, until it has
 * blocked another writer while idle for 5 minutes, or for 4 hours otherwise: stand-in-locks.ts.)
 */
import { literalResult, type EncodedResult } from './result-encoding.ts';
import type { StandInSession, WireBind } from './stand-in-session.ts';

/** A session as account statements see it: its id, its user, its statements. */
export interface AccountSession {
  readonly id: string;
  readonly user: string;
  readonly handler: StandInSession;
}

/** The answer to an account statement, or undefined when `sqlText` is an ordinary statement. */
export async function accountStatement(
  sqlText: string,
  bindings: Readonly<Record<string, WireBind>> | undefined,
  sessions: Iterable<AccountSession>,
  caller: AccountSession,
): Promise<(EncodedResult & { statementTypeId: number }) | undefined> {
  if (/^\s*SHOW\s+TRANSACTIONS\s*;?\s*$/i.test(sqlText)) {
    // Like Snowflake without the account-level form: the caller's own user's transactions.
    const rows = [...sessions]
      .filter((s) => s.user === caller.user && s.handler.transactionId !== undefined)
      .map((s) => [s.handler.transactionId!, s.user, s.id, s.handler.transactionId!, null, 'running', '0']);
    // Snowflake's columns, lower-case as SHOW prints them (started_on left NULL here).
    const columns = [
      { name: 'id', type: 'fixed' as const },
      { name: 'user' },
      { name: 'session', type: 'fixed' as const },
      { name: 'name' },
      { name: 'started_on' },
      { name: 'state' },
      { name: 'scope', type: 'fixed' as const },
    ];
    return { ...literalResult(columns, rows), statementTypeId: 0x1000 };
  }
  const abort = /^\s*SELECT\s+SYSTEM\$ABORT_TRANSACTION\(\s*(\?|\d+)\s*\)/i.exec(sqlText);
  if (!abort) return undefined;
  const bound = bindings?.['1']?.value;
  const id = abort[1] === '?' ? String(Array.isArray(bound) ? bound[0] : bound) : abort[1]!;
  const owner = [...sessions].find((s) => s.handler.transactionId === id && s.user === caller.user);
  await owner?.handler.abortTransaction();
  const message = owner ? `Transaction ${id} aborted.` : `Transaction ${id} not found.`;
  return { ...literalResult([{ name: 'SYSTEM$ABORT_TRANSACTION(?)' }], [[message]]), statementTypeId: 0x1000 };
}
