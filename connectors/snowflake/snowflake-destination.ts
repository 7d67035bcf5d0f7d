/**
 * The Snowflake destination: wires the config, client, dialect, schema (snowflake-schema.ts),
 * flush (snowflake-commit.ts: a session-temporary staging table merged by primary key, rows
 * and state in one transaction) and lock behind the `Destination` interface.
 */
import type {
  Destination,
  DestinationLock,
  FlushResult,
  LockOwner,
  RunIdentity,
} from '../../src/destination/destination.ts';
import type { LeaseLock } from '../../src/destination/lease-lock.ts';
import { fillFromRawSql } from '../../src/evolution/fill-sql.ts';
import { DestinationError } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { checkSnowflakeAccess } from './snowflake-check.ts';
import { connectSnowflake, queryTag, type SnowflakeClient } from './snowflake-client.ts';
import { snowflakeStaging } from './snowflake-commit.ts';
import {
  connectionOptions,
  type SnowflakeConfig,
  snowflakeCapabilities,
  snowflakeLocation,
} from './snowflake-config.ts';
import { SNOWFLAKE_DIALECT } from './snowflake-dialect.ts';
import { acquireSnowflakeLock, snowflakeLockTable } from './snowflake-lock.ts';
import {
  ensureSnowflakeTables,
  ensureSnowflakeViews,
  type SnowflakeSchema,
  snowflakeColumnTypes,
  snowflakeDdl,
  snowflakeViewDdl,
} from './snowflake-schema.ts';
import * as sql from './snowflake-sql.ts';

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
  const staging = snowflakeStaging(at);

  const session = (): SnowflakeClient => {
    if (!client) throw new DestinationError('Snowflake destination used before open() or after close()');
    return client;
  };
  const schema = (): SnowflakeSchema => ({
    client: session(),
    at,
    account: config.account,
    warehouse: config.warehouse,
    logger: deps.logger,
  });

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

    ensureTables: (tables) => ensureSnowflakeTables(schema(), tables),

    columnTypes: () => snowflakeColumnTypes(session(), at),

    async fillFromRaw(table, columns) {
      if (!columns.length) return;
      await session().execute(fillFromRawSql(sql.tableName(at, table.name), SNOWFLAKE_DIALECT, columns));
    },

    describeDdl: (tables) => snowflakeDdl(at, tables),

    ensureViews: (views) => ensureSnowflakeViews(schema(), views),

    describeViewDdl: (views) => snowflakeViewDdl(at, views),

    async commit(parts): Promise<FlushResult> {
      // The stages first: until the lease check, nothing needs a running warehouse.
      await staging.prepare(
        session(),
        parts.map((p) => p.table),
      );
      await lease?.assertHeld();
      return staging.commit(session(), parts);
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
      staging.forget();
      await c?.close();
    },
  };
}
