/**
 * One node-postgres connection with the three things the connector does with it: queries,
 * `COPY ... FROM STDIN` fed from an iterable, and transactions. `pg` and `pg-copy-streams`
 * are imported here, lazily, so a run configured for another destination never loads them.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Client, Submittable } from 'pg';
import { inTransaction } from '../../src/destination/transaction.ts';
import { DestinationError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { redact } from '../../src/log/redact.ts';
import type { PostgresOptions } from './postgres-config.ts';
import { isPermissionDenied, permissionError } from './postgres-permission.ts';

export interface PostgresSession {
  query<R extends object = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<{ rows: R[]; rowCount: number }>;
  /** Streams `chunks` (CSV text) into a `COPY ... FROM STDIN` statement. */
  copyFrom(sql: string, chunks: Iterable<string>): Promise<void>;
  /** Runs `work` between BEGIN and COMMIT; any error rolls back and is rethrown. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Sends a query object that reads its own result (a pg-cursor `Cursor`, which pages it). */
  submit<T extends Submittable>(query: T): T;
  /** False once the connection has closed or failed, unless `end()` closed it. */
  isAlive(): boolean;
  end(): Promise<void>;
}

/** An error node-postgres raised, with the SQLSTATE or socket code it carries. */
export function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Run on every connection aivis opens. */
export const PIN_STANDARD_STRINGS = 'SET standard_conforming_strings = on';

export async function connectPostgres(options: PostgresOptions, logger: Logger): Promise<PostgresSession> {
  const [{ default: pg }, { from: copyFrom }] = await Promise.all([import('pg'), import('pg-copy-streams')]);
  const client: Client = new pg.Client({ connectionString: options.connectionString, application_name: 'aivis' });
  let alive = true;
  // An idle connection that dies (server restart) must not crash the process.
  client.on('error', (error) => {
    alive = false;
    logger.warn('postgres connection lost', { error: redact(error.message) });
  });
  client.on('end', () => (alive = false));
  try {
    await client.connect();
    // Every literal aivis writes reads the same either way (postgres-dialect.ts); pinned too, so
    // a role or database carrying the legacy `off` never changes what a statement means.
    await client.query(PIN_STANDARD_STRINGS);
  } catch (error) {
    await client.end().catch(() => {});
    throw connectError(error, options);
  }
  let ended = false;
  // A missing privilege reads the same in every verb, whichever statement met it first.
  const refused =
    (sql: string) =>
    (error: unknown): never => {
      throw isPermissionDenied(error) ? permissionError(error, sql, options) : error;
    };
  return {
    async query<R extends object>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]).catch(refused(sql));
      return { rows: result.rows as R[], rowCount: result.rowCount ?? 0 };
    },
    async copyFrom(sql, chunks) {
      await pipeline(Readable.from(chunks), client.query(copyFrom(sql))).catch(refused(sql));
    },
    transaction: (work) => inTransaction((sql) => client.query(sql), work),
    submit: (query) => client.query(query),
    isAlive: () => alive,
    async end() {
      if (ended) return;
      ended = true;
      await client.end();
    },
  };
}

function connectError(error: unknown, options: PostgresOptions): DestinationError {
  const { address, user, database } = options;
  const reason = (() => {
    switch (errorCode(error)) {
      case 'ECONNREFUSED':
        return `cannot reach Postgres at ${address}: connection refused`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `cannot reach Postgres at ${address}: host not found`;
      case 'ETIMEDOUT':
        return `cannot reach Postgres at ${address}: connection timed out`;
      case '28P01':
        return `Postgres at ${address} refused the password of user "${user}"`;
      case '28000':
        return `Postgres at ${address} refused user "${user}": ${(error as Error).message}`;
      case '3D000':
        return `database "${database}" does not exist on Postgres at ${address}`;
      case 'SELF_SIGNED_CERT_IN_CHAIN':
      case 'DEPTH_ZERO_SELF_SIGNED_CERT':
      case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
        return `Postgres at ${address} presented a TLS certificate aivis does not trust (${(error as Error).message}): add sslrootcert=/path/to/ca.pem to destination.url, the CA that signed it (your provider publishes it)`;
      case 'ERR_TLS_CERT_ALTNAME_INVALID':
        return `Postgres at ${address} presented a TLS certificate for another host name (${(error as Error).message}): connect by the name on the certificate, or use sslmode=verify-ca with sslrootcert`;
      default:
        if (/does not support SSL/i.test((error as Error).message))
          return `Postgres at ${address} does not accept TLS connections: remove sslmode from destination.url, or enable ssl on the server`;
        return `cannot connect to Postgres at ${address}: ${(error as Error).message}`;
    }
  })();
  return new DestinationError(redact(reason));
}
