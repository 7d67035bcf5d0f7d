/**
 * Reading the DuckDB file with a user's statement (`aivis query`; src/destination/read-only-query.ts).
 * The file is opened read-only, so DuckDB itself refuses any write, and the statement's type is
 * the prepared statement's (`StatementType.SELECT` only; `SHOW`, `DESCRIBE` and `FROM t` prepare as
 * SELECT). A sync in another process holds the file: that is said, with what to do.
 *
 * `import-prompts --from-table/--from-query` reads while its own destination writes receipts
 * to the same file, and DuckDB lets a process hold a file through one instance only: beside a
 * destination, the role shares the destination's (read-write) instance, and the prepared
 * statement's type (SELECT only) is the guard.
 */
import type { DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { ConfigError, DestinationError, ExitCode, LockHeldError } from '../../src/errors.ts';
import { inPages, type QueryCell, type QueryRole } from '../../src/destination/read-only-query.ts';
import { fileLockHolder } from './duckdb-client.ts';
import { type DuckdbConfig, duckdbOptions } from './duckdb-config.ts';
import { DUCKDB_DIALECT } from './duckdb-dialect.ts';
import { assertDuckdbFile } from './duckdb-file-kind.ts';
import { limitStatements } from './duckdb-session-limits.ts';

type NodeApi = typeof import('@duckdb/node-api');

export async function openDuckdbQuery(config: DuckdbConfig, besideDestination = false): Promise<QueryRole> {
  const api = await import('@duckdb/node-api');
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
  for (const statement of limitStatements(file, limits)) await connection.run(statement);
  // Unqualified names resolve in the configured schema, as in the docs' examples; a file that
  // has no such schema yet (never synced) keeps DuckDB's default.
  await connection.run(`SET search_path = '${schema.replaceAll("'", "''")}'`).catch(() => undefined);
  let closed = false;
  return {
    engine: 'DuckDB',
    dialect: DUCKDB_DIALECT,
    async inspect(sql) {
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
        throw new ConfigError(`DuckDB cannot run the statement: ${(error as Error).message}`);
      }
    },
    async run(statement, pageRows) {
      const result = await connection.stream(statement.sql);
      const columns = result.columnNames();
      const json = result.columnTypes().map((type) => type.alias === 'JSON');
      async function* cells() {
        for await (const rows of result.yieldRows())
          for (const row of rows)
            yield row.map((value, i) => (json[i] && typeof value === 'string' ? JSON.parse(value) : cell(api, value)));
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
