/**
 * The Snowflake destination: rows are bound into a session-temporary staging table (all
 * text), merged into the target by primary key, and the state rows ride along, all in one
 * transaction per flush. Wires the config, client, SQL, types and lock files together.
 */
import type {
  Destination,
  DestinationLock,
  FlushResult,
  LockOwner,
  RunIdentity,
} from '../../src/destination/destination.ts';
import { columnTypesOf } from '../../src/destination/column-types.ts';
import type { LeaseLock } from '../../src/destination/lease-lock.ts';
import { fillFromRawSql } from '../../src/evolution/fill-sql.ts';
import { type Description, descriptionsOf, staleDescriptions } from '../../src/destination/descriptions.ts';
import type { Row, TableSpec } from '../../src/destination/table-spec.ts';
import { serialByKey } from '../../src/destination/serial-by-key.ts';
import { assertOwnView, storedViewDescription } from '../../src/destination/view-spec.ts';
import { DestinationError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import {
  alterExplained,
  checkSnowflakeAccess,
  commentExplained,
  createTableExplained,
  createViewExplained,
  ensureSchemaExplained,
} from './snowflake-check.ts';
import { connectSnowflake, queryTag, type SnowflakeClient } from './snowflake-client.ts';
import {
  ARRAY_BINDING_THRESHOLD,
  connectionOptions,
  type SnowflakeConfig,
  snowflakeCapabilities,
  snowflakeLocation,
} from './snowflake-config.ts';
import { acquireSnowflakeLock, snowflakeLockTable } from './snowflake-lock.ts';
import * as sql from './snowflake-sql.ts';
import { SNOWFLAKE_DIALECT } from './snowflake-dialect.ts';
import { CATALOG_TYPES, toStagedText } from './snowflake-types.ts';

/** What the destination needs besides its config. */
export interface SnowflakeDeps {
  readonly logger: Logger;
  /** The clock of lock leases (tests move it instead of waiting). */
  readonly now?: () => Date;
  /** Bounds every request, the login included, without login retries (see `connectionOptions`). */
  readonly requestTimeoutMs?: number;
  /** The run this destination serves: its sessions' QUERY_TAG. */
  readonly run?: RunIdentity;
  /** The lease's renewal timer (tests and the bench pass their clock's; see `LeaseOptions.repeat`). */
  readonly repeat?: (ms: number, fire: () => void) => () => void;
}

export function createSnowflakeDestination(config: SnowflakeConfig, deps: SnowflakeDeps): Destination {
  const at = snowflakeLocation(config);
  const options = connectionOptions(config, deps.requestTimeoutMs);
  const now = deps.now ?? (() => new Date());
  const tag = queryTag(deps.run);
  let client: SnowflakeClient | undefined;
  /** The run lock this destination holds, checked before each flush writes. */
  let lease: LeaseLock | undefined;
  /** Whether this session's current schema is aivis's (where its staging tables live). */
  let inSchema = false;

  const session = (): SnowflakeClient => {
    if (!client) throw new DestinationError('Snowflake destination used before open() or after close()');
    return client;
  };

  /** The database and schema as the catalog stores them (upper case), the binds of catalog queries. */
  const where = () => [sql.storedName(at.database), sql.storedName(at.schema)];

  /** Sets the comments the catalog does not hold yet. */
  const describe = async (wanted: readonly Description[]) => {
    const c = session();
    const stored = (await c.execute(sql.existingCommentsSql(at), [...where(), ...where()])).map((row) => ({
      table_name: String(row.TABLE_NAME),
      column_name: nullableText(row.COLUMN_NAME),
      comment: nullableText(row.COMMENT),
    }));
    for (const description of staleDescriptions(wanted, stored))
      await commentExplained(
        () => c.execute(sql.commentSql(at, description)),
        at,
        config.warehouse,
        { kind: description.view ? 'view' : 'table', name: description.table },
        (advice) => deps.logger.warn('description not set', { error: advice }),
      );
  };

  /**
   * Makes each staging table afresh and empty before the transaction (DDL would commit an open
   * Snowflake transaction). DDL runs in cloud services, so emptying a stage this way keeps a
   * DELETE per table off the warehouse (docs/destinations/snowflake.md#cost).
   */
  const prepareStages = async (tables: readonly TableSpec[]) => {
    if (!inSchema) await session().execute(sql.useSchemaSql(at));
    inSchema = true;
    for (const table of tables) await session().execute(sql.createStageSql(table));
  };

  const upsert = async (table: TableSpec, rows: readonly Row[]): Promise<number> => {
    const c = session();
    const perBatch = Math.max(1, Math.floor(ARRAY_BINDING_THRESHOLD / table.columns.length));
    for (let start = 0; start < rows.length; start += perBatch) {
      const batch = rows
        .slice(start, start + perBatch)
        .map((row) => table.columns.map((col) => toStagedText(col.type, row[col.name])));
      await c.execute(sql.insertStageSql(table), batch);
    }
    const [counts] = await c.execute(sql.mergeSql(at, table));
    return Number(counts?.['number of rows inserted'] ?? 0) + Number(counts?.['number of rows updated'] ?? 0);
  };

  return {
    type: 'snowflake',
    capabilities: snowflakeCapabilities(config),
    namespace: { database: at.database, schema: at.schema },

    async open() {
      client ??= await connectSnowflake(options, tag);
    },

    async check(scope) {
      const tables = [...scope.tables, snowflakeLockTable];
      await checkSnowflakeAccess(session(), at, config.warehouse, { ...scope, tables });
    },

    async ensureTables(tables) {
      const c = session();
      await ensureSchemaExplained(c, at, config.warehouse);
      const existing = new Map<string, Set<string>>();
      for (const row of await c.execute(sql.existingColumnsSql(at), where())) {
        const name = String(row.TABLE_NAME);
        if (!existing.has(name)) existing.set(name, new Set());
        existing.get(name)!.add(String(row.COLUMN_NAME));
      }
      for (const table of tables) {
        const columns = existing.get(table.name.toUpperCase());
        if (!columns) {
          await createTableExplained(() => c.execute(sql.createTableSql(at, table)), at, config.warehouse);
          continue;
        }
        for (const column of table.columns) {
          if (columns.has(column.name.toUpperCase())) continue;
          await alterExplained(() => c.execute(sql.addColumnSql(at, table, column)), at, config.warehouse, {
            kind: 'table',
            name: table.name,
          });
        }
      }
      await describe(descriptionsOf(tables, false));
    },

    async columnTypes(_tables) {
      // Names come back as Snowflake stores them (upper case); aivis names every column in lower case.
      const rows = (await session().execute(sql.existingColumnsSql(at), where())).map((row) => ({
        table_name: String(row.TABLE_NAME).toLowerCase(),
        column_name: String(row.COLUMN_NAME).toLowerCase(),
        data_type: String(row.DATA_TYPE),
      }));
      return columnTypesOf(rows, CATALOG_TYPES);
    },

    async fillFromRaw(table, columns) {
      if (!columns.length) return;
      await session().execute(fillFromRawSql(sql.tableName(at, table.name), SNOWFLAKE_DIALECT, columns));
    },

    describeDdl(tables) {
      return [
        sql.createSchemaSql(at),
        ...tables.flatMap((t) => [
          sql.createTableSql(at, t),
          ...descriptionsOf([t], false).map((d) => sql.commentSql(at, d)),
        ]),
      ];
    },

    async ensureViews(views) {
      if (!views.length) return;
      // One schema's views change one workspace at a time in this process: between another
      // run's CREATE VIEW and its COMMENT, the view would look like one aivis did not make.
      await oneViewChangeAtATime(`${config.account}/${sql.schemaName(at)}`, async () => {
        const c = session();
        const objects = new Map(
          (await c.execute(sql.existingObjectsSql(at), where())).map((row) => [
            String(row.TABLE_NAME),
            {
              kind: row.TABLE_TYPE === 'VIEW' ? ('view' as const) : ('table' as const),
              comment: nullableText(row.COMMENT),
            },
          ]),
        );
        for (const view of views)
          assertOwnView(view, objects.get(view.name.toUpperCase()), sql.tableName(at, view.name));
        const wanted: Description[] = [];
        for (const view of views) {
          const stored = storedViewDescription(view, view.query(sql.snowflakeViewDialect(at)));
          wanted.push(
            ...descriptionsOf([view], true).map((d) => (d.column === undefined ? { ...d, text: stored } : d)),
          );
          // Current already: replacing it would cost every column's comment again.
          if (objects.get(view.name.toUpperCase())?.comment !== stored)
            await createViewExplained(() => c.execute(sql.createViewSql(at, view)), at, config.warehouse);
        }
        await describe(wanted);
      });
    },

    describeViewDdl: (views) =>
      views.flatMap((v) => [sql.createViewSql(at, v), ...descriptionsOf([v], true).map((d) => sql.commentSql(at, d))]),

    async commit(parts): Promise<FlushResult> {
      // The stages first: until the lease check, nothing needs a running warehouse.
      await prepareStages(parts.map((p) => p.table));
      await lease?.assertHeld();
      const rowsWritten: Record<string, number> = {};
      await session().transaction(async () => {
        for (const part of parts) rowsWritten[part.table.name] = await upsert(part.table, part.rows);
      });
      // No `jobs`: Snowflake bills warehouse time, not statements.
      return { rowsWritten };
    },

    bookkeeping: () => sql.snowflakeBookkeeping(session(), at),

    async acquireLock(owner: LockOwner): Promise<DestinationLock> {
      const [current] = await session().execute('SELECT CURRENT_SESSION() AS ID');
      const taken = await acquireSnowflakeLock(
        {
          client: await connectSnowflake(options, tag),
          dataSession: String(current?.ID),
          at,
          warehouse: config.warehouse,
          logger: deps.logger,
          now,
          ...(deps.repeat ? { repeat: deps.repeat } : {}),
        },
        owner,
      );
      lease = taken;
      return {
        async release() {
          if (lease === taken) lease = undefined;
          await taken.release();
        },
      };
    },

    async close() {
      const c = client;
      client = undefined;
      inSchema = false;
      await c?.close();
    },
  };
}

/** View changes per account and schema, one at a time in this process (see `ensureViews`). */
const oneViewChangeAtATime = serialByKey();

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}
