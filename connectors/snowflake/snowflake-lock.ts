/**
 * The run lock on Snowflake: the `_AIVIS_LOCK` row with a lease. Snowflake has no session-bound
 * advisory lock, so the holder renews `expires_at` while it runs; a crashed run stops renewing
 * and loses the lock when the lease runs out. Taking the lock is one conditional UPDATE,
 * which Snowflake serializes against other UPDATEs of the table, so two runs cannot both win.
 *
 * A run killed inside a flush leaves its transaction open ("detached"), holding locks on the
 * tables it was merging into. Snowflake aborts it once it has blocked a writer while idle for
 * 5 minutes, which aivis's lock wait (LOCK_TIMEOUT, snowflake-client.ts) outlasts; still, the
 * lock row records the holder's data session, so the run that takes over an expired lease
 * aborts that session's transactions first and need not wait at all.
 */
import type { DestinationLock, LockOwner } from '../../src/destination/destination.ts';
import { lockTable } from '../../src/destination/engine-tables.ts';
import { lockHeldError, SYNC_LOCK_NAME } from '../../src/destination/run-lock.ts';
import { column, type TableSpec } from '../../src/destination/table-spec.ts';
import { DestinationError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import type { SnowflakeClient } from './snowflake-client.ts';
import type { SnowflakeLocation } from './snowflake-config.ts';
import { decodeRow } from './snowflake-rows.ts';
import { ident } from './snowflake-identifier.ts';
import { ensureSchema } from './snowflake-schema.ts';
import { createTableSql, selectAllSql, tableName } from './snowflake-sql.ts';

/** How long a lock outlives its last renewal; a crashed run blocks the next one at most this long. */
export const LEASE_MS = 10 * 60_000;
const RENEW_EVERY_MS = LEASE_MS / 5;
const EPOCH = `'1970-01-01T00:00:00Z'::TIMESTAMP_TZ`;

export const snowflakeLockTable: TableSpec = {
  ...lockTable,
  columns: [...lockTable.columns, column('expires_at', 'timestamp', false), column('session_id', 'string')],
};

/** What taking and keeping the lease needs. */
export interface LeaseLockDeps {
  /** A session of its own: renewals must not join a data transaction. Closed on release. */
  readonly client: SnowflakeClient;
  /** `CURRENT_SESSION()` of the session that writes the data. */
  readonly dataSession: string;
  readonly at: SnowflakeLocation;
  readonly logger: Logger;
  readonly now: () => Date;
}

interface Holder extends LockOwner {
  readonly expiresAt: string;
  readonly sessionId: string | null;
}

/** The lock, plus the check a flush makes before it writes. */
export interface LeaseLock extends DestinationLock {
  /** Throws if another run has taken the lock since this run's lease ran out. */
  ensureHeld(): Promise<void>;
}

export async function acquireLeaseLock(deps: LeaseLockDeps, owner: LockOwner): Promise<LeaseLock> {
  const { client, at, now } = deps;
  const table = tableName(at, snowflakeLockTable.name);
  const [name, runId, expiresAt, sessionId] = ['name', 'run_id', 'expires_at', 'session_id'].map(ident) as [
    string,
    string,
    string,
    string,
  ];
  const expiry = () => new Date(now().getTime() + LEASE_MS).toISOString();
  try {
    await ensureSchema(client, at);
    await client.execute(createTableSql(at, snowflakeLockTable));
    // The row exists before anyone competes for it, so taking the lock is an UPDATE, never an INSERT race.
    await client.execute(
      `MERGE INTO ${table} AS T USING (SELECT ? AS ${name}) AS S ON T.${name} = S.${name} ` +
        `WHEN NOT MATCHED THEN INSERT (${['name', 'run_id', 'host', 'pid', 'started_at', 'expires_at'].map(ident).join(', ')}) ` +
        `VALUES (S.${name}, '', '', 0, '', ${EPOCH})`,
      [SYNC_LOCK_NAME],
    );
    const previous = await readHolder(deps);
    const [taken] = await client.execute(
      `UPDATE ${table} SET ${runId} = ?, ${ident('host')} = ?, ${ident('pid')} = ?::NUMBER(38,0), ${ident('started_at')} = ?, ${expiresAt} = ?::TIMESTAMP_TZ, ${sessionId} = ? ` +
        `WHERE ${name} = ? AND (${expiresAt} < ?::TIMESTAMP_TZ OR ${runId} = ?)`,
      [
        owner.runId,
        owner.host,
        String(owner.pid),
        owner.startedAt,
        expiry(),
        deps.dataSession,
        SYNC_LOCK_NAME,
        now().toISOString(),
        owner.runId,
      ],
    );
    if (Number(taken?.['number of rows updated'] ?? 0) < 1) throw heldError(at, await readHolder(deps));
    if (previous?.sessionId && previous.runId !== owner.runId) await abortDetached(deps, previous);
  } catch (error) {
    await client.close();
    throw error;
  }

  let renewedAt = now().getTime();
  let lost = false;
  const renew = async () => {
    if (lost) return;
    const [renewed] = await client.execute(
      `UPDATE ${table} SET ${expiresAt} = ?::TIMESTAMP_TZ WHERE ${name} = ? AND ${runId} = ?`,
      [expiry(), SYNC_LOCK_NAME, owner.runId],
    );
    if (Number(renewed?.['number of rows updated'] ?? 0) >= 1) renewedAt = now().getTime();
    else {
      lost = true;
      deps.logger.error('lost the Snowflake run lock: another run took it after our lease expired', {
        run_id: owner.runId,
      });
    }
  };
  const timer = setInterval(
    () =>
      void renew().catch((error: unknown) =>
        deps.logger.warn('could not renew the Snowflake run lock lease', { error }),
      ),
    RENEW_EVERY_MS,
  );
  timer.unref();
  let released = false;
  return {
    async ensureHeld() {
      // A paused process (or a timer that could not run) may have outlived its lease unnoticed.
      if (!lost && now().getTime() - renewedAt >= RENEW_EVERY_MS) await renew();
      if (lost)
        throw new DestinationError(
          `this run lost the lock on schema "${at.schema}" to another run after its lease expired (was the process paused?); stopping before writing more`,
        );
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      try {
        await client.execute(
          `UPDATE ${table} SET ${expiresAt} = ${EPOCH}, ${sessionId} = NULL WHERE ${name} = ? AND ${runId} = ?`,
          [SYNC_LOCK_NAME, owner.runId],
        );
      } finally {
        await client.close();
      }
    },
  };
}

async function readHolder(deps: LeaseLockDeps): Promise<Holder | undefined> {
  const [raw] = await deps.client.execute(selectAllSql(deps.at, snowflakeLockTable, `${ident('name')} = ?`), [
    SYNC_LOCK_NAME,
  ]);
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

function heldError(at: SnowflakeLocation, holder: Holder | undefined): Error {
  const error = lockHeldError(at.schema, holder);
  if (holder) error.message += `; its lease expires at ${holder.expiresAt} unless that run renews it`;
  return error;
}

/** Ends the transactions a crashed holder's data session left open (same user: no extra grant). */
async function abortDetached(deps: LeaseLockDeps, previous: Holder): Promise<void> {
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
