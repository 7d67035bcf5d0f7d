/** Wires the DuckDB pieces into a `Destination` (docs/architecture.md#destinations): appender into staging, upsert, state, in one transaction. */
import { randomBytes } from 'node:crypto';
import { sqlBookkeeping } from '../../src/destination/bookkeeping.ts';
import type { Destination, DestinationLock, FlushResult, TableRows } from '../../src/destination/destination.ts';
import { FLUSH_SIZING } from '../../src/destination/flush-sizing.ts';
import { lockTable } from '../../src/destination/engine-tables.ts';
import { lockRow, releaseOnce, SYNC_LOCK_NAME } from '../../src/destination/run-lock.ts';
import { deleteLockRowSql } from '../../src/destination/sql-statements.ts';
import { DestinationError } from '../../src/errors.ts';
import { connectDuckdb, type DuckdbSession } from './duckdb-client.ts';
import type { DuckdbOptions } from './duckdb-config.ts';
import { takeProcessLock } from './duckdb-lock.ts';
import { duckdbDdl, ensureDuckdbTables } from './duckdb-schema.ts';
import * as sql from './duckdb-sql.ts';
import { appendCell } from './duckdb-types.ts';

export function duckdbDestination(options: DuckdbOptions): Destination {
  const { schema } = options;
  let session: DuckdbSession | undefined;
  /** The table a flush was writing when it failed, for the message. */
  let current = '';
  const open = (): DuckdbSession => {
    if (!session) throw new DestinationError('the DuckDB destination is not open (call open() first)');
    return session;
  };
  const failure = (what: string, error: unknown) =>
    error instanceof DestinationError
      ? error
      : new DestinationError(`DuckDB refused ${what}: ${(error as Error).message}`);

  /**
   * Stages and upserts each part; returns rows written per table. Runs in the caller's
   * transaction. Staging goes through the appender: measured on 5,000 rows of 8 columns it
   * took 15-70 ms against 0.9-1.7 s for 500-row prepared INSERTs.
   */
  const upsertParts = async (s: DuckdbSession, parts: readonly TableRows[]) => {
    const rowsWritten: Record<string, number> = {};
    for (const { table, rows } of parts) {
      current = table.name;
      await s.run(sql.createStaging(table));
      await s.append(sql.stagingName(table), (appender) => {
        for (const row of rows) {
          for (const c of table.columns) appendCell(appender, c.type, row[c.name]);
          appender.endRow();
        }
      });
      rowsWritten[table.name] = await s.run(sql.upsertFromStaging(sql.tableName(options, table.name), table));
      await s.run(sql.dropStaging(table));
    }
    return rowsWritten;
  };

  return {
    type: 'duckdb',
    capabilities: { transactional: true, ...FLUSH_SIZING.duckdb },

    async open() {
      session ??= await connectDuckdb(options);
    },

    async check() {
      const s = open();
      const probe = sql.tableName(options, `_aivis_check_${randomBytes(4).toString('hex')}`);
      try {
        await ensureDuckdbTables(s, options, []);
        await s.run(`CREATE TABLE ${probe} ("id" BIGINT PRIMARY KEY)`);
        await s.run(`INSERT INTO ${probe} VALUES (1)`);
        await s.run(`DROP TABLE ${probe}`);
      } catch (error) {
        throw failure(`to create tables in schema "${schema}" of "${options.path}"`, error);
      }
    },

    async ensureTables(tables) {
      const s = open();
      try {
        await s.transaction(() => ensureDuckdbTables(s, options, tables));
      } catch (error) {
        throw failure(`to create tables in schema "${schema}"`, error);
      }
    },

    describeDdl: (tables) => duckdbDdl(options, tables),

    async commit(parts): Promise<FlushResult> {
      const s = open();
      if (parts.length === 0) return { rowsWritten: {} };
      try {
        return { rowsWritten: await s.transaction(() => upsertParts(s, parts)) };
      } catch (error) {
        throw failure(`a flush into ${sql.tableName(options, current)}`, error);
      }
    },

    ...sqlBookkeeping(() => sql.duckdbBookkeeping(open(), options)),

    async acquireLock(owner): Promise<DestinationLock> {
      const s = open();
      const unlock = takeProcessLock(options.path, schema, owner);
      try {
        await s.transaction(async () => {
          await ensureDuckdbTables(s, options, [lockTable]);
          await upsertParts(s, [{ table: lockTable, rows: [lockRow(owner)] }]);
        });
      } catch (error) {
        unlock();
        throw failure(`to record the run lock in schema "${schema}"`, error);
      }
      return releaseOnce(async () => {
        try {
          if (session)
            await session.run(deleteLockRowSql(sql.tableName(options, lockTable.name)), [SYNC_LOCK_NAME, owner.runId]);
        } finally {
          unlock();
        }
      });
    },

    async close() {
      session?.close();
      session = undefined;
    },
  };
}
