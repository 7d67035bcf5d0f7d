/**
 * The run lock on Snowflake: the shared lease (src/destination/lease-lock.ts) over
 * Snowflake's statements, on a session of its own (renewals must not join a data
 * transaction). The row is created before anyone competes for it, so taking the lock is
 * always an UPDATE, never an INSERT race.
 *
 * A run killed inside a flush leaves its transaction open ("detached"), holding locks on the
 * tables it was merging into. Snowflake aborts it once it has blocked a writer while idle for
 * 5 minutes, which aivis's lock wait (LOCK_TIMEOUT, snowflake-client.ts) outlasts; still, the
 * lock row records the holder's data session, so the run that takes over an expired lease
 * aborts that session's transactions first and need not wait at all.
 */
import type { LockOwner } from '../../src/destination/destination.ts';
import { type LeaseLock, leaseLockTable, takeLease } from '../../src/destination/lease-lock.ts';
import { type LockHolder, lockHeldError, syncLockName } from '../../src/destination/run-lock.ts';
import { column, type TableSpec } from '../../src/destination/table-spec.ts';
import type { Logger } from '../../src/log/logger.ts';
import { createTableExplained, ensureSchemaExplained } from './snowflake-check.ts';
import type { SnowflakeClient } from './snowflake-client.ts';
import { SNOWFLAKE_LEASE_MS, type SnowflakeLocation } from './snowflake-config.ts';
import {
  createLockRowSql,
  createTableSql,
  endLeaseSql,
  renewLeaseSql,
  selectAllSql,
  takeLeaseSql,
  whereLockName,
} from './snowflake-sql.ts';
import { decodeRow } from './snowflake-types.ts';

/** The lease row plus the data session of its holder, whose detached transactions a successor aborts. */
export const snowflakeLockTable: TableSpec = {
  ...leaseLockTable,
  columns: [
    ...leaseLockTable.columns,
    column('session_id', 'string', "The Snowflake session that writes the holder's data."),
  ],
};

/** What taking and keeping the lease needs. */
export interface SnowflakeLockDeps {
  /** A session of its own: renewals must not join a data transaction. Closed on release. */
  readonly client: SnowflakeClient;
  /** `CURRENT_SESSION()` of the session that writes the data. */
  readonly dataSession: string;
  readonly at: SnowflakeLocation;
  /** The config's warehouse, named when the role may not use it. */
  readonly warehouse: string;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly repeat?: (ms: number, fire: () => void) => () => void;
}

interface Holder extends LockHolder {
  readonly expiresAt: string;
  readonly sessionId: string | null;
}

export async function acquireSnowflakeLock(deps: SnowflakeLockDeps, owner: LockOwner): Promise<LeaseLock> {
  const { client, at } = deps;
  const lockName = syncLockName(owner.workspace);
  const updated = (rows: Record<string, unknown>[]) => Number(rows[0]?.['number of rows updated'] ?? 0) > 0;
  try {
    // The first statements of a run: a role without the grants hears the same GRANT check names.
    await ensureSchemaExplained(client, at, deps.warehouse);
    await createTableExplained(() => client.execute(createTableSql(at, snowflakeLockTable)), at, deps.warehouse);
    await client.execute(createLockRowSql(at, snowflakeLockTable), [lockName]);
    return await takeLease(
      {
        async take(expiresAt, now) {
          const previous = await readHolder(deps, lockName);
          const taken = updated(
            await client.execute(takeLeaseSql(at, snowflakeLockTable), [
              owner.runId,
              owner.host,
              String(owner.pid),
              owner.startedAt,
              expiresAt,
              deps.dataSession,
              lockName,
              now,
              owner.runId,
            ]),
          );
          if (taken && previous?.sessionId && previous.runId !== owner.runId) await abortDetached(deps, previous);
          return taken;
        },
        renew: async (expiresAt) =>
          updated(await client.execute(renewLeaseSql(at, snowflakeLockTable), [expiresAt, lockName, owner.runId])),
        async end() {
          try {
            await client.execute(endLeaseSql(at, snowflakeLockTable), [lockName, owner.runId]);
          } finally {
            await client.close();
          }
        },
        heldError: async () => heldError(at, owner.workspace, await readHolder(deps, lockName)),
      },
      {
        now: deps.now,
        logger: deps.logger,
        leaseMs: SNOWFLAKE_LEASE_MS,
        ...(deps.repeat ? { repeat: deps.repeat } : {}),
        lostMessage: `this run lost the lock on schema "${at.schema}" to another run after its lease expired (was the process paused?)`,
      },
    );
  } catch (error) {
    await client.close();
    throw error;
  }
}

async function readHolder(deps: SnowflakeLockDeps, lockName: string): Promise<Holder | undefined> {
  const [raw] = await deps.client.execute(selectAllSql(deps.at, snowflakeLockTable, whereLockName), [lockName]);
  if (!raw) return undefined;
  const row = decodeRow(snowflakeLockTable, raw);
  return {
    runId: String(row.run_id),
    host: String(row.host),
    pid: Number(row.pid),
    // Text, as the shared lock table declares it: the refusal repeats it exactly as written.
    startedAt: String(row.started_at),
    expiresAt: String(row.expires_at),
    sessionId: row.session_id === null ? null : String(row.session_id),
  };
}

function heldError(at: SnowflakeLocation, workspace: string, holder: Holder | undefined): Error {
  const error = lockHeldError(at.schema, workspace, holder);
  if (holder) error.message += `; its lease expires at ${holder.expiresAt} unless that run renews it`;
  return error;
}

/** Ends the transactions a crashed holder's data session left open (same user: no extra grant). */
async function abortDetached(deps: SnowflakeLockDeps, previous: Holder): Promise<void> {
  try {
    for (const transaction of await deps.client.execute('SHOW TRANSACTIONS')) {
      if (String(transaction.session) !== previous.sessionId) continue;
      await deps.client.execute('SELECT SYSTEM$ABORT_TRANSACTION(?)', [String(transaction.id)]);
      deps.logger.warn('aborted a transaction left open by a crashed run', {
        run_id: previous.runId,
        transaction: String(transaction.id),
      });
    }
  } catch (error) {
    deps.logger.warn(
      'could not abort transactions left open by a crashed run; Snowflake aborts them once they have blocked this run for 5 idle minutes',
      { run_id: previous.runId, error },
    );
  }
}
