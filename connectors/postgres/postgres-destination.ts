/** Wires the Postgres pieces into a `Destination` (docs/architecture.md#adding-a-destination): its session, dialect, catalog, commit (postgres-commit.ts) and lock. */
import type { Destination, DestinationLock, FlushResult } from '../../src/destination/destination.ts';
import { lockTable } from '../../src/destination/engine-tables.ts';
import { type CatalogColumn, columnTypesOf } from '../../src/destination/column-types.ts';
import { qualifiedName } from '../../src/destination/sql-identifier.ts';
import { fillFromRawSql } from '../../src/evolution/fill-sql.ts';
import { ansiDdl, ansiViewDdl, probeTableName, writeProbeTable } from '../../src/destination/sql-statements.ts';
import { DestinationError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { refusing } from '../../src/destination/refusal.ts';
import { missingGrants, missingPrivilegesError } from './postgres-check.ts';
import { commitParts } from './postgres-commit.ts';
import { connectPostgres, type PostgresSession } from './postgres-client.ts';
import { POSTGRES_CAPABILITIES, type PostgresConfig, postgresOptions } from './postgres-config.ts';
import { acquirePostgresLock, type PostgresLock } from './postgres-lock.ts';
import * as sql from './postgres-sql.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';
import { CATALOG_TYPES } from './postgres-types.ts';

export function createPostgresDestination(config: PostgresConfig, deps: { logger: Logger }): Destination {
  const { logger } = deps;
  const options = postgresOptions(config);
  const { schema } = options;
  let session: PostgresSession | undefined;
  /** The run lock this destination took, if any: its connection dying means another run may start. */
  let lock: PostgresLock | undefined;
  const open = (): PostgresSession => {
    if (!session) throw new DestinationError('the Postgres destination is not open (call open() first)');
    return session;
  };
  const refused = refusing('Postgres');

  return {
    type: 'postgres',
    capabilities: POSTGRES_CAPABILITIES,
    namespace: { database: options.database, schema },

    async open() {
      session ??= await connectPostgres(options, logger);
    },

    async check(scope) {
      const s = open();
      const missing = await missingGrants(s, options, scope, lockTable.name);
      if (missing.fixes.length) throw missingPrivilegesError(options, missing);
      await refused(`to create schema "${schema}"`, () => sql.ensurePostgresTables(s, schema, [], logger));
      await refused(`a probe table in schema "${schema}"`, () =>
        writeProbeTable((statement) => s.query(statement), qualifiedName(schema, probeTableName())),
      );
    },

    ensureTables: (tables) =>
      refused(`to create tables in schema "${schema}"`, () => sql.ensurePostgresTables(open(), schema, tables, logger)),

    columnTypes: async () =>
      columnTypesOf((await open().query<CatalogColumn>(sql.EXISTING_COLUMNS, [schema])).rows, CATALOG_TYPES),

    async fillFromRaw(table, columns) {
      if (!columns.length) return;
      const statement = fillFromRawSql(qualifiedName(schema, table.name), POSTGRES_DIALECT, columns);
      await refused(`to fill new columns of ${schema}.${table.name} from _raw`, () => open().query(statement));
    },

    describeDdl: (tables) => ansiDdl(sql.postgresNames(schema), tables),

    ensureViews: (views) =>
      refused(`to create views in schema "${schema}"`, () => sql.ensurePostgresViews(open(), schema, views, logger)),

    describeViewDdl: (views) => ansiViewDdl(sql.postgresNames(schema), views),

    async commit(parts): Promise<FlushResult> {
      if (lock?.lost()) throw lostLockError();
      let current = '';
      return refused(
        () => `a flush into ${qualifiedName(schema, current)}`,
        () => commitParts(open(), schema, parts, (table) => (current = table)),
      );
    },

    bookkeeping: () => sql.postgresBookkeeping(open(), schema),

    async acquireLock(owner): Promise<DestinationLock> {
      lock = await acquirePostgresLock(options, logger, owner);
      return lock;
    },

    async close() {
      const s = session;
      session = undefined;
      await s?.end();
    },
  };
}

function lostLockError(): DestinationError {
  return new DestinationError(
    'the run lock was lost (its Postgres connection closed), so another run may have started; stopped before writing more, and the next run resumes from the last committed page',
  );
}
