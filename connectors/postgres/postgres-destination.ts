/** Wires the Postgres pieces into a `Destination` (docs/architecture.md#adding-a-destination): COPY into staging, upsert, state, in one transaction. */
import type { Destination, DestinationLock, FlushResult, TableRows } from '../../src/destination/destination.ts';
import { lockTable } from '../../src/destination/engine-tables.ts';
import { columnTypesOf } from '../../src/destination/column-types.ts';
import { qualifiedName } from '../../src/destination/sql-identifier.ts';
import { fillFromRawSql } from '../../src/evolution/fill-sql.ts';
import { ansiDdl, ansiViewDdl, probeTableName, writeProbeTable } from '../../src/destination/sql-statements.ts';
import { DestinationError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { redact } from '../../src/log/redact.ts';
import { missingGrants, missingPrivilegesError } from './postgres-check.ts';
import { connectPostgres, type PostgresSession } from './postgres-client.ts';
import { POSTGRES_CAPABILITIES, type PostgresConfig, postgresOptions } from './postgres-config.ts';
import { acquirePostgresLock, type PostgresLock } from './postgres-lock.ts';
import * as sql from './postgres-sql.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';
import { CATALOG_TYPES, csvField } from './postgres-types.ts';

/** Rows per chunk written to the COPY stream: large enough to amortise, small enough to stay flat. */
const COPY_CHUNK_ROWS = 500;

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
  const failure = (what: string, error: unknown) =>
    error instanceof DestinationError
      ? error
      : new DestinationError(redact(`Postgres refused ${what}: ${(error as Error).message}`));

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
      try {
        await sql.ensurePostgresTables(s, schema, [], logger);
      } catch (error) {
        throw failure(`to create schema "${schema}"`, error);
      }
      try {
        await writeProbeTable((statement) => s.query(statement), qualifiedName(schema, probeTableName()));
      } catch (error) {
        throw failure(`a probe table in schema "${schema}"`, error);
      }
    },

    async ensureTables(tables) {
      const s = open();
      try {
        await sql.ensurePostgresTables(s, schema, tables, logger);
      } catch (error) {
        throw failure(`to create tables in schema "${schema}"`, error);
      }
    },

    async columnTypes(_tables) {
      const { rows } = await open().query<{ table_name: string; column_name: string; data_type: string }>(
        sql.EXISTING_COLUMNS,
        [schema],
      );
      return columnTypesOf(rows, CATALOG_TYPES);
    },

    async fillFromRaw(table, columns) {
      if (!columns.length) return;
      try {
        await open().query(fillFromRawSql(qualifiedName(schema, table.name), POSTGRES_DIALECT, columns));
      } catch (error) {
        throw failure(`to fill new columns of ${schema}.${table.name} from _raw`, error);
      }
    },

    describeDdl: (tables) => ansiDdl(sql.postgresNames(schema), tables),

    async ensureViews(views) {
      const s = open();
      try {
        await sql.ensurePostgresViews(s, schema, views, logger);
      } catch (error) {
        throw failure(`to create views in schema "${schema}"`, error);
      }
    },

    describeViewDdl: (views) => ansiViewDdl(sql.postgresNames(schema), views),

    async commit(parts): Promise<FlushResult> {
      if (lock?.lost()) {
        throw new DestinationError(
          'the run lock was lost (its Postgres connection closed), so another run may have started; stopped before writing more, and the next run resumes from the last committed page',
        );
      }
      const s = open();
      const rowsWritten: Record<string, number> = {};
      if (parts.length === 0) return { rowsWritten };
      let current = '';
      try {
        await s.transaction(async () => {
          for (const part of parts) {
            current = part.table.name;
            await s.query(sql.createStaging(part.table));
            await s.copyFrom(sql.copyIntoStaging(part.table), csvChunks(part));
            const { rowCount } = await s.query(sql.upsertFromStaging(schema, part.table));
            rowsWritten[part.table.name] = rowCount;
          }
        });
      } catch (error) {
        throw failure(`a flush into ${qualifiedName(schema, current)}`, error);
      }
      return { rowsWritten };
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

/** CSV text of a part's rows, a few hundred rows per chunk. */
function* csvChunks(part: TableRows): Generator<string> {
  const columns = part.table.columns;
  let chunk = '';
  for (let i = 0; i < part.rows.length; i++) {
    const row = part.rows[i]!;
    chunk += `${columns.map((c) => csvField(c.type, row[c.name])).join(',')}\n`;
    if ((i + 1) % COPY_CHUNK_ROWS === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
