/**
 * One DuckDB connection: statements, appends into a temp table, transactions. The instance
 * comes from DuckDB's per-process cache, so several destinations on one file share it (DuckDB
 * refuses a second process on the file; inside one process a second instance would fight the
 * first). `@duckdb/node-api` is imported here, lazily (`importDuckdb`).
 */
import type { DuckDBAppender, DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { inTransaction } from '../../src/destination/transaction.ts';
import { DestinationError, LockHeldError } from '../../src/errors.ts';
import type { DuckdbOptions } from './duckdb-config.ts';
import { importDuckdb } from './duckdb-module.ts';
import { holdPrivateFiles } from './duckdb-private-files.ts';
import { applyLimits } from './duckdb-session-limits.ts';

export interface DuckdbSession {
  /** Runs a statement; returns the rows it changed. */
  run(sql: string, params?: readonly DuckDBValue[]): Promise<number>;
  /** Runs a query; returns its rows as plain objects (BIGINT as bigint). */
  all<R extends object = Record<string, unknown>>(sql: string, params?: readonly DuckDBValue[]): Promise<R[]>;
  /** Appends rows to a temp table through DuckDB's appender; `write` calls `endRow()` per row. */
  append(tempTable: string, write: (appender: DuckDBAppender) => void): Promise<void>;
  /** Runs `work` between BEGIN and COMMIT; any error rolls back and is rethrown. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  close(): void;
}

/** DuckDB's message when another process has the file: `... (PID 1234) ...`. */
const FILE_LOCKED = /Could not set lock on file .*\(PID (\d+)\)/;

/** The pid of the process that holds the file, when DuckDB refused to open it for that. */
export function fileLockHolder(error: unknown): string | undefined {
  return FILE_LOCKED.exec((error as Error).message)?.[1];
}

export async function connectDuckdb(options: DuckdbOptions): Promise<DuckdbSession> {
  const { DuckDBInstance } = await importDuckdb();
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  const releasePrivateFiles = holdPrivateFiles();
  try {
    instance = await DuckDBInstance.fromCache(options.path);
    connection = await instance.connect();
  } catch (error) {
    releasePrivateFiles();
    throw openError(error, options.path);
  }
  try {
    await applyLimits((sql) => connection.run(sql), options.path, options.limits);
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    releasePrivateFiles();
    throw error;
  }
  let closed = false;
  const session: DuckdbSession = {
    async run(sql, params) {
      return (await connection.run(sql, params as DuckDBValue[] | undefined)).rowsChanged;
    },
    async all<R extends object>(sql: string, params?: readonly DuckDBValue[]) {
      return (await connection.runAndReadAll(sql, params as DuckDBValue[] | undefined)).getRowObjectsJS() as R[];
    },
    async append(tempTable, write) {
      const appender = await connection.createAppender(tempTable, 'main', 'temp');
      try {
        write(appender);
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    },
    transaction: (work) => inTransaction((sql) => connection.run(sql), work),
    close() {
      if (closed) return;
      closed = true;
      connection.closeSync();
      // Drops this wrapper's reference; the file closes when the last one in the process goes.
      instance.closeSync();
      releasePrivateFiles();
    },
  };
  return session;
}

function openError(error: unknown, file: string): Error {
  const holder = fileLockHolder(error);
  if (holder) {
    return new LockHeldError(
      `another process holds the DuckDB file "${file}": pid ${holder} (DuckDB lets one process open a file at a time)`,
    );
  }
  return new DestinationError(`cannot open the DuckDB file "${file}": ${(error as Error).message}`);
}
