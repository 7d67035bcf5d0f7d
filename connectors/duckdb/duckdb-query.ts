/**
 * Reading the DuckDB file with a user's statement (`aivis query`; src/destination/read-only-query.ts).
 * The file is opened read-only, so DuckDB itself refuses any write, and the statement's type is
 * the prepared statement's (`StatementType.SELECT` only; `SHOW`, `DESCRIBE` and `FROM t` prepare as
 * SELECT). A sync in another process holds the file: that is said, with what to do.
 *
 * `import-prompts --from-table/--from-query` reads while its own destination writes receipts
 * to the same file, and DuckDB lets a process hold a file through one instance only: beside a
 * destination, the role shares the destination's (read-write) instance, so besides the prepared
 * statement's type (SELECT only) each statement runs in a `READ ONLY` transaction, which refuses
 * the writes a SELECT can hide (`nextval` advancing a sequence).
 *
 * Either way the session reads the warehouse and nothing else (docs/cli.md#query): external
 * access and extension autoloading are off before the user's statement is read.
 */
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { ConfigError, DestinationError, ExitCode, LockHeldError } from '../../src/errors.ts';
import {
  inPages,
  notReadOnly,
  type QueryCell,
  type QueryRole,
  readsFile,
} from '../../src/destination/read-only-query.ts';
import { fileLockHolder } from './duckdb-client.ts';
import { type DuckdbConfig, duckdbOptions } from './duckdb-config.ts';
import { DUCKDB_DIALECT } from './duckdb-dialect.ts';
import { assertDuckdbFile } from './duckdb-file-kind.ts';
import { importDuckdb } from './duckdb-module.ts';
import { applyLimits } from './duckdb-session-limits.ts';

type NodeApi = typeof import('@duckdb/node-api');

export async function openDuckdbQuery(config: DuckdbConfig, besideDestination = false): Promise<QueryRole> {
  const api = await importDuckdb();
  const { path: file, schema, limits } = duckdbOptions(config);
  assertDuckdbFile({ path: file });
  let instance: DuckDBInstance;
  try {
    instance = besideDestination
      ? await api.DuckDBInstance.fromCache(file)
      : await api.DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  } catch (error) {
    throw openError(error, file);
  }
  const connection = await instance.connect();
  // Beside a destination the instance is the destination's, bounded when it opened.
  if (!besideDestination) {
    await applyLimits((sql) => connection.run(sql), file, limits).catch((error: unknown) => {
      connection.closeSync();
      instance.closeSync();
      throw error;
    });
  }
  // The read-only session reads the warehouse and nothing else: no files (`read_text`,
  // `read_csv`, `glob`, a quoted path in FROM), no URLs, no extensions fetched or loaded.
  // External access, once off, stays off for the instance's life (DuckDB refuses to turn it back
  // on while the database is open; the destination beside needs none). Alone, the settings are
  // also locked; beside a destination the instance is the destination's, whose own settings stay
  // its to change, and the gate lets no SET or PRAGMA through anyway.
  await closeExternalAccess(connection, { lock: !besideDestination });
  // Unqualified names resolve in the configured schema, as in the docs' examples; a file that
  // has no such schema yet (never synced) keeps DuckDB's default.
  await connection.run(`SET search_path = '${schema.replaceAll("'", "''")}'`).catch(() => undefined);
  let closed = false;
  let openTransaction: symbol | undefined;
  return {
    engine: 'DuckDB',
    dialect: DUCKDB_DIALECT,
    async inspect(sql, caller) {
      try {
        const extracted = await connection.extractStatements(sql);
        const prepared = await extracted.prepare(0);
        const type = prepared.statementType;
        prepared.destroySync();
        return {
          several: extracted.count > 1,
          kind: api.StatementType[type] ?? String(type),
          reads: type === api.StatementType.SELECT,
        };
      } catch (error) {
        const file = EXTERNAL_FILE_REFUSED.exec((error as Error).message)?.[1];
        if (file !== undefined) throw readsFile(caller, file);
        throw new ConfigError(`DuckDB cannot run the statement: ${(error as Error).message}`);
      }
    },
    async run(statement, pageRows) {
      // Each statement in a read-only transaction of its own, ended once its rows are read (so
      // it holds back no checkpoint of the destination beside) or by the next statement.
      if (openTransaction !== undefined) await connection.run('ROLLBACK').catch(() => undefined);
      const mine = Symbol('transaction');
      await connection.run('BEGIN TRANSACTION READ ONLY');
      openTransaction = mine;
      // Only while it is still this statement's: a later statement has already ended it.
      const endTransaction = async () => {
        if (openTransaction !== mine) return;
        openTransaction = undefined;
        await connection.run('ROLLBACK').catch(() => undefined);
      };
      const refused = (error: unknown) => runError(error, statement.caller);
      const result = await connection.stream(statement.sql).catch((error: unknown) => {
        throw refused(error);
      });
      const columns = result.columnNames();
      const json = result.columnTypes().map((type) => type.alias === 'JSON');
      async function* cells() {
        try {
          for await (const rows of result.yieldRows())
            for (const row of rows)
              yield row.map((value, i) =>
                json[i] && typeof value === 'string' ? JSON.parse(value) : cell(api, value),
              );
        } catch (error) {
          throw refused(error);
        } finally {
          await endTransaction();
        }
      }
      return { columns, pages: inPages(cells(), pageRows) };
    },
    async close() {
      if (closed) return;
      closed = true;
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/** DuckDB's refusal of a file or URL once external access is off; the name it gives, not the content. */
const EXTERNAL_FILE_REFUSED = /Cannot access (?:file|directory) "([^"]*)" - file system operations are disabled/;

/** DuckDB's refusal of a write in the read-only transaction, or in the file opened read-only. */
const WRITE_REFUSED = /transaction is launched in read-only mode|attached in read-only mode/;

/** What DuckDB refused while running a statement, worded as the gate words it; anything else as it came. */
function runError(error: unknown, caller: string): unknown {
  const message = (error as Error).message;
  if (WRITE_REFUSED.test(message)) return notReadOnly(caller, 'writing');
  const file = EXTERNAL_FILE_REFUSED.exec(message)?.[1];
  return file === undefined ? error : readsFile(caller, file);
}

async function closeExternalAccess(connection: DuckDBConnection, { lock }: { lock: boolean }): Promise<void> {
  await connection.run('SET enable_external_access = false');
  await connection.run('SET autoload_known_extensions = false');
  await connection.run('SET autoinstall_known_extensions = false');
  if (lock) await connection.run('SET lock_configuration = true');
}

/** A DuckDB value as a result cell: nested values as JSON values, the rest as DuckDB prints them. */
function cell(api: NodeApi, value: DuckDBValue): QueryCell {
  if (value === null || typeof value !== 'object') return value as QueryCell;
  if (value instanceof api.DuckDBListValue || value instanceof api.DuckDBArrayValue)
    return value.items.map((item) => cell(api, item));
  if (value instanceof api.DuckDBStructValue)
    return Object.fromEntries(Object.entries(value.entries).map(([key, item]) => [key, cell(api, item)]));
  return String(value);
}

function openError(error: unknown, file: string): Error {
  const holder = fileLockHolder(error);
  if (holder) {
    return new LockHeldError(
      `the DuckDB file "${file}" is in use by another process (pid ${holder}), most likely a running aivis sync: ` +
        'DuckDB lets one process open a file while it writes; wait for the sync to finish, or query a copy of the file ' +
        '(copy it, then point destination.path of a second config at the copy)',
    );
  }
  const message = (error as Error).message;
  if (/database does not exist/.test(message)) {
    return new DestinationError(
      `there is no DuckDB file at "${file}" (destination.path): run aivis sync first, or fix destination.path`,
      ExitCode.Usage,
    );
  }
  return new DestinationError(`cannot open the DuckDB file "${file}" to read it: ${message}`);
}
