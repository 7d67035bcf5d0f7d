/** Wires the DuckDB pieces into a `Destination` (docs/architecture.md#adding-a-destination): its lazy session, dialect, catalog, commit (duckdb-commit.ts) and lock. */
import { existsSync } from 'node:fs';
import type { Destination, FlushResult } from '../../src/destination/destination.ts';
import { type CatalogColumn, columnTypesOf } from '../../src/destination/column-types.ts';
import { refusing } from '../../src/destination/refusal.ts';
import { ensureAnsiTables, ensureAnsiViews } from '../../src/destination/schema-diff.ts';
import { fillFromRawSql } from '../../src/evolution/fill-sql.ts';
import { ansiDdl, ansiViewDdl, probeTableName, writeProbeTable } from '../../src/destination/sql-statements.ts';
import { DestinationError, ExitCode } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { assertFolderExists, fileAccessError, probeScratchDatabase } from './duckdb-check.ts';
import { assertDuckdbFile } from './duckdb-file-kind.ts';
import { connectDuckdb, type DuckdbSession } from './duckdb-client.ts';
import { commitParts } from './duckdb-commit.ts';
import { withMemoryHint } from './duckdb-out-of-memory.ts';
import {
  DUCKDB_CAPABILITIES,
  type DuckdbConfig,
  duckdbOptions,
  earlierDefaultFile,
  schemaClash,
} from './duckdb-config.ts';
import { acquireDuckdbLock } from './duckdb-lock.ts';
import * as sql from './duckdb-sql.ts';
import { DUCKDB_DIALECT } from './duckdb-dialect.ts';
import { CATALOG_TYPES } from './duckdb-types.ts';

export function createDuckdbDestination(config: DuckdbConfig, deps: { logger: Logger }): Destination {
  deps.logger.debug('duckdb destination', { path: config.path, schema: config.schema });
  const options = duckdbOptions(config);
  const { schema } = options;
  /** Whether `open()` was called and `close()` not yet. */
  let opened = false;
  /** The connection, made by `open()` when the file exists, else by the first statement. */
  let connecting: Promise<DuckdbSession> | undefined;
  const connect = (): Promise<DuckdbSession> => {
    if (!opened) throw new DestinationError('the DuckDB destination is not open (call open() first)');
    // A file another process holds may be free at the next try.
    connecting ??= connectDuckdb(options).catch((error: unknown) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  };
  /**
   * The session every method uses. A file that does not exist yet is created by the first
   * statement, not by `open()`: `check` proves what it must without leaving the file behind.
   */
  const session: DuckdbSession = {
    run: async (statement, params) => (await connect()).run(statement, params),
    all: async (statement, params) => (await connect()).all(statement, params),
    append: async (table, write) => (await connect()).append(table, write),
    transaction: async (work) => (await connect()).transaction(work),
    // The connection is the destination's to close (`close()`), not its users'.
    close: () => {},
  };
  const refused = refusing('DuckDB');

  return {
    type: 'duckdb',
    capabilities: DUCKDB_CAPABILITIES,
    namespace: { database: options.catalog, schema },
    location: options.path === ':memory:' ? 'in memory' : `file ${options.path}`,
    configWarnings: () => [schemaClash(options)].filter((w) => w !== undefined),
    absent: () =>
      options.path === ':memory:' || existsSync(options.path)
        ? undefined
        : `the DuckDB file ${options.path} does not exist (is destination.path mistyped?)`,

    async open() {
      const earlier = earlierDefaultFile(options);
      if (earlier) {
        throw new DestinationError(
          `found ${earlier}, the default database file of aivis 0.1, but not ${options.path}, the default now: ` +
            `rename it (mv ${earlier} ${options.path}) to keep its rows and state, or set destination.path: ./aivis.duckdb to go on using it`,
          ExitCode.Usage,
        );
      }
      assertFolderExists(options);
      const denied = await fileAccessError(options);
      if (denied) throw denied;
      assertDuckdbFile(options);
      opened = true;
      if (options.path === ':memory:' || existsSync(options.path)) await connect();
    },

    check: () =>
      refused(`to create tables in schema "${schema}" of "${options.path}"`, async () => {
        if (!connecting) return await probeScratchDatabase(options);
        await ensureAnsiTables(sql.duckdbCatalog(session, options), []);
        await writeProbeTable((statement) => session.run(statement), sql.tableName(options, probeTableName()));
      }),

    ensureTables: (tables) =>
      refused(`to create tables in schema "${schema}"`, () =>
        sql.oneDdlAtATime(options.path, () =>
          session.transaction(() => ensureAnsiTables(sql.duckdbCatalog(session, options), tables)),
        ),
      ),

    columnTypes: async () =>
      columnTypesOf(
        await session.all<CatalogColumn>(sql.EXISTING_COLUMNS, [options.catalog, options.schema]),
        CATALOG_TYPES,
      ),

    async fillFromRaw(table, columns) {
      if (!columns.length) return;
      const statement = fillFromRawSql(sql.tableName(options, table.name), DUCKDB_DIALECT, columns);
      // Runs of several workspaces sharing the file fill one table's rows: DuckDB fails two
      // transactions updating one row at once ("Conflict on update").
      await refused(`to fill new columns of ${schema}.${table.name} from _raw`, () =>
        sql.oneDdlAtATime(options.path, () => session.run(statement)),
      );
    },

    describeDdl: (tables) => ansiDdl(sql.duckdbNames(options), tables),

    ensureViews: (views) =>
      refused(`to create views in schema "${schema}"`, () =>
        sql.oneDdlAtATime(options.path, () =>
          session.transaction(() => ensureAnsiViews(sql.duckdbCatalog(session, options), views)),
        ),
      ),

    describeViewDdl: (views) => ansiViewDdl(sql.duckdbNames(options), views),

    commit(parts): Promise<FlushResult> {
      let current = '';
      const step = () => `a flush into ${sql.tableName(options, current)}`;
      return refused(step, () =>
        withMemoryHint(options.limits, step, () => commitParts(session, options, parts, (table) => (current = table))),
      );
    },

    bookkeeping: () => sql.duckdbBookkeeping(session, options),

    async acquireLock(owner) {
      await connect();
      return acquireDuckdbLock(() => (opened ? session : undefined), options, owner);
    },

    async close() {
      opened = false;
      const closing = connecting;
      connecting = undefined;
      (await closing?.catch(() => undefined))?.close();
    },
  };
}
