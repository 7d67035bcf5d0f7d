/**
 * A local stand-in of Snowflake's REST protocol for the real `snowflake-sdk`
 * (`accessUrl: stand-in.url`): login (password, key-pair JWT), query requests with binds
 * (array binds included), transactions, session delete, token renewal and keep-alive heartbeats
 * (with Snowflake's session lifetime: stand-in-tokens.ts), telemetry. SQL runs on one in-memory
 * DuckDB (the "account"); each session gets its own DuckDB connection. See
 * `sql-rewrite.ts` for the rewrites and `stand-in-session.ts` for the Snowflake semantics kept.
 *
 * @example
 * const sf = await startSnowflakeStandIn({ users: [{ name: 'LOADER', password: 'pw' }], databases: ['ANALYTICS'], warehouses: ['LOADING'] });
 * snowflake.createConnection({ account: 'acct', username: 'loader', password: 'pw', accessUrl: sf.url, ... });
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { PARSE_JSON_CHECK, parseJsonCheckFunction } from './parse-json-function.ts';
import { SnowflakeStandInError } from './snowflake-errors.ts';
import { accountStatement, type AccountSession } from './stand-in-account.ts';
import { StandInClock } from './stand-in-clock.ts';
import type { QueryHistoryEntry } from './stand-in-query-history.ts';
import { TableLocks } from './stand-in-locks.ts';
import { authenticate, type LoginData, type StandInUser } from './stand-in-login.ts';
import { type CreatedObject, StandInSession, type StandInStats, type WireBind } from './stand-in-session.ts';
import { WarehouseMeter } from './stand-in-warehouse.ts';
import { serialByKey } from '../../../src/destination/serial-by-key.ts';
import { SessionTokens } from './stand-in-tokens.ts';

/**
 * Snowflake's VARIANT functions the fill of evolved columns uses, over DuckDB's JSON (the
 * stand-in's VARIANT): a number written as digits that fits 64 bits is an integer, any other a
 * double, as Snowflake types them up to 18 digits.
 */
const VARIANT_MACROS = [
  "IS_VARCHAR(x) AS json_type(x) = 'VARCHAR'",
  "IS_INTEGER(x) AS json_type(x) IN ('BIGINT', 'UBIGINT')",
  "IS_DECIMAL(x) AS json_type(x) = 'DOUBLE'",
  "IS_DOUBLE(x) AS json_type(x) = 'DOUBLE'",
  "IS_BOOLEAN(x) AS json_type(x) = 'BOOLEAN'",
  "IS_NULL_VALUE(x) AS json_type(x) = 'NULL'",
  "AS_VARCHAR(x) AS CASE WHEN json_type(x) = 'VARCHAR' THEN json_extract_string(x, '$') END",
  "GET(x, k) AS json_extract(x, '/' || replace(replace(k, '~', '~0'), '/', '~1'))",
  'REGEXP_LIKE(s, p) AS regexp_full_match(s, p)',
];

export type { StandInUser } from './stand-in-login.ts';
export type { StandInStats } from './stand-in-session.ts';

/** The account the stand-in plays: who may log in, and what exists. */
export interface SnowflakeStandInOptions {
  readonly users: readonly StandInUser[];
  /** Databases that exist (upper-case names, as Snowflake stores unquoted ones). */
  readonly databases: readonly string[];
  /** Warehouses (upper-case) every role may use. */
  readonly warehouses: readonly string[];
  /** Roles (upper-case) that may read and write but not create schemas, tables or views. */
  readonly readOnlyRoles?: readonly string[];
  /** Roles (upper-case) granted CREATE SCHEMA and CREATE TABLE but not CREATE VIEW. */
  readonly noViewRoles?: readonly string[];
  /** The clock of the warehouse meter (default: the stand-in's own clock); a bench passes its scaled clock. */
  readonly warehouseClock?: () => number;
}

/** A running stand-in. */
export interface SnowflakeStandIn {
  /** `http://127.0.0.1:PORT`, the driver's `accessUrl`. */
  readonly url: string;
  readonly stats: StandInStats;
  /** Snowflake's time as the stand-in keeps it: tests advance it instead of waiting. */
  readonly clock: StandInClock;
  /** The warehouse's resumes and running seconds (AUTO_SUSPEND = 60: stand-in-warehouse.ts). */
  readonly warehouse: WarehouseMeter;
  /** Every statement with its session's QUERY_TAG. */
  readonly queryHistory: readonly QueryHistoryEntry[];
  /**
   * Faults in force. `inProgressPolls`: each statement is first answered "query in progress"
   * (code 333333, with a `getResultUrl`) and its result only on that many polls later, as
   * Snowflake answers a statement that outlasts the request.
   */
  faults: { inProgressPolls?: number };
  /** "Query in progress" answers given so far. */
  readonly inProgressAnswers: number;
  /** Statements waiting for a table lock another session holds. */
  waitingStatements(): number;
  /** Open sessions (a connector that forgets `destroy()` leaves one behind). */
  openSessions(): number;
  /** Open transactions, detached ones (of killed clients) included. */
  openTransactions(): number;
  /**
   * Called with each statement's text as it arrives, before it runs: a test kills a client
   * process from here at an exact point of its work. `undefined` removes the hook.
   */
  onStatement(hook: ((sqlText: string) => void) | undefined): void;
  close(): Promise<void>;
}

/** A `query-request` body: one statement, its binds, and whether Snowflake is only to describe it. */
interface QueryRequest {
  readonly sqlText: string;
  readonly bindings?: Record<string, WireBind>;
  readonly describeOnly?: boolean;
}

interface Session extends AccountSession {
  /** Statements of one session run one at a time, as on one Snowflake session. */
  queue: Promise<unknown>;
}

export async function startSnowflakeStandIn(options: SnowflakeStandInOptions): Promise<SnowflakeStandIn> {
  const instance = await DuckDBInstance.create(':memory:');
  const setup = await instance.connect();
  await setup.run(`SET GLOBAL TimeZone = 'UTC'`);
  for (const db of options.databases) await setup.run(`ATTACH ':memory:' AS "${db}"`);
  setup.registerScalarFunction(parseJsonCheckFunction());
  setup.closeSync();
  const stats: StandInStats = {
    logins: 0,
    statements: 0,
    stageBindAttempts: 0,
    maxBindValues: 0,
    heartbeats: 0,
    tokenRenewals: 0,
  };
  let statementHook: ((sqlText: string) => void) | undefined;
  let nextSession = 1000;
  let nextTransaction = 1_700_000_000_000;
  const clock = new StandInClock();
  const meter = new WarehouseMeter(options.warehouseClock ?? (() => clock.now()));
  const history: QueryHistoryEntry[] = [];
  const databases = new Set(options.databases);
  const catalog = serialByKey();
  const locks = new TableLocks(clock);
  const endSession = async (session: Session) => {
    await session.queue;
    await session.handler.close();
  };
  const sessions = new SessionTokens<Session>(clock, endSession);
  const readOnlyRoles = new Set(options.readOnlyRoles ?? []);
  const noViewRoles = new Set(options.noViewRoles ?? []);
  const cannotCreate = (role: string): ReadonlySet<CreatedObject> =>
    new Set<CreatedObject>(
      readOnlyRoles.has(role) ? ['SCHEMA', 'TABLE', 'VIEW'] : noViewRoles.has(role) ? ['VIEW'] : [],
    );
  const warehouses = new Set(options.warehouses);

  const login = async (url: URL, data: LoginData) => {
    const user = authenticate(options.users, data);
    stats.logins++;
    const connection = await instance.connect();
    // PARSE_JSON refuses what Snowflake's does (parse-json-check.ts), then keeps the text as
    // written; variant-text.ts types its numbers as Snowflake does.
    await connection.run(`CREATE TEMP MACRO PARSE_JSON(text) AS CAST(${PARSE_JSON_CHECK}(text) AS JSON)`);
    for (const macro of VARIANT_MACROS) await connection.run(`CREATE TEMP MACRO ${macro}`);
    // The driver sends names as configured: quoted ones exactly, others resolve upper-case.
    const database = resolvedName(url.searchParams.get('databaseName'));
    const schema = resolvedName(url.searchParams.get('schemaName'));
    const role = url.searchParams.get('roleName')?.toUpperCase() ?? 'PUBLIC';
    // Like Snowflake, a session whose schema does not exist yet starts without one.
    const known = database !== undefined && databases.has(database);
    for (const target of [
      known && schema ? `"${database}"."${schema}"` : undefined,
      known ? `"${database}"` : undefined,
    ]) {
      if (!target) continue;
      try {
        await connection.run(`USE ${target}`);
        break;
      } catch {
        // try the next, shorter search path
      }
    }
    const id = String(nextSession++);
    const handler = new StandInSession({
      id,
      nextTransactionId: () => String(nextTransaction++),
      connection,
      locks,
      clock,
      cannotCreate: cannotCreate(role),
      warehouse: warehouses.has(url.searchParams.get('warehouse')?.toUpperCase() ?? ''),
      stats,
      meter,
      databases,
      history,
      catalogChange: (work) => catalog('account', work),
    });
    const tokens = sessions.issue({ id, user: user.name.toUpperCase(), handler, queue: Promise.resolve() });
    return {
      ...tokens,
      sessionId: Number(id),
      parameters: echoedParameters(data),
      sessionInfo: {
        databaseName: database ?? null,
        schemaName: schema ?? null,
        warehouseName: url.searchParams.get('warehouse'),
        roleName: role,
      },
    };
  };

  const sessionOf = (req: http.IncomingMessage): Session => sessions.sessionOf(tokenOf(req));

  let faults: { inProgressPolls?: number } = {};
  let inProgressAnswers = 0;
  /** Results of statements answered "in progress", by query id, with the polls still to refuse. */
  const pending = new Map<string, { data: unknown; polls: number }>();
  const inProgress = (queryId: string) => {
    inProgressAnswers++;
    return new QueryInProgress(queryId);
  };
  const result = (queryId: string) => {
    const waiting = pending.get(queryId);
    if (!waiting) throw new SnowflakeStandInError('000709', '02000', `Statement ${queryId} not found.`);
    if (waiting.polls-- > 0) return inProgress(queryId);
    pending.delete(queryId);
    return waiting.data;
  };

  const query = async (req: http.IncomingMessage, body: QueryRequest, queryId: string) => {
    const polls = faults.inProgressPolls ?? 0;
    if (polls > 0) {
      pending.set(queryId, { data: await answer(req, body, queryId), polls: polls - 1 });
      return inProgress(queryId);
    }
    return answer(req, body, queryId);
  };

  const answer = async (req: http.IncomingMessage, body: QueryRequest, queryId: string) => {
    const session = sessionOf(req);
    statementHook?.(body.sqlText);
    const run = session.queue.then(async () =>
      body.describeOnly
        ? session.handler.describe(body.sqlText)
        : ((await accountStatement(body.sqlText, body.bindings, sessions.sessions(), session)) ??
          session.handler.execute(body.sqlText, body.bindings, queryId)),
    );
    session.queue = run.catch(() => undefined);
    const result = await run;
    return {
      ...result,
      total: result.rowset.length,
      returned: result.rowset.length,
      queryId,
      queryResultFormat: 'json',
      parameters: [],
    };
  };

  const route = async (req: http.IncomingMessage, url: URL, body: unknown, queryId: string): Promise<unknown> => {
    switch (url.pathname) {
      case '/session/v1/login-request':
        return login(url, (body as { data: LoginData }).data);
      case '/queries/v1/query-request':
        return query(req, body as QueryRequest, queryId);
      case `/queries/${url.pathname.split('/')[2]}/result`:
        return result(url.pathname.split('/')[2]!);
      case '/session': {
        if (url.searchParams.get('delete') !== 'true') return {};
        const session = sessionOf(req);
        sessions.forget(session);
        await endSession(session);
        return {};
      }
      case '/session/token-request': {
        const renewed = sessions.renew(tokenOf(req));
        stats.tokenRenewals++;
        return {
          sessionToken: renewed.token,
          validityInSecondsST: renewed.validityInSeconds,
          masterToken: renewed.masterToken,
          validityInSecondsMT: renewed.masterValidityInSeconds,
        };
      }
      case '/session/heartbeat':
        sessionOf(req);
        stats.heartbeats++;
        return {};
      default:
        // telemetry: accepted and ignored
        return {};
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const raw = Buffer.concat(chunks);
      const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString();
      const reply = (payload: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const queryId = randomUUID();
      route(req, url, text ? JSON.parse(text) : {}, queryId)
        .then((data) =>
          reply(
            data instanceof QueryInProgress
              ? {
                  success: true,
                  code: '333333',
                  message: 'Query execution is in progress',
                  data: { queryId: data.queryId, getResultUrl: `/queries/${data.queryId}/result` },
                }
              : { success: true, code: null, message: null, data },
          ),
        )
        .catch((error: unknown) => {
          const e =
            error instanceof SnowflakeStandInError
              ? error
              : new SnowflakeStandInError('000603', 'XX000', String(error));
          // Only a statement has a query id; a refused login does not.
          const statement = url.pathname === '/queries/v1/query-request' ? { queryId } : {};
          reply({
            success: false,
            code: e.code,
            message: e.message,
            data: { ...statement, sqlState: e.sqlState, errorCode: e.code, internalError: false, age: 0 },
          });
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    clock,
    warehouse: meter,
    queryHistory: history,
    get faults() {
      return faults;
    },
    set faults(next) {
      faults = next;
    },
    get inProgressAnswers() {
      return inProgressAnswers;
    },
    waitingStatements: () => locks.waiting,
    openSessions: () => sessions.sessions().length,
    openTransactions: () => sessions.sessions().filter((s) => s.handler.transactionId !== undefined).length,
    onStatement: (hook) => {
      statementHook = hook;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of sessions.sessions()) {
        sessions.forget(session);
        await session.handler.close();
      }
      instance.closeSync();
    },
  };
}

/** The answer "query in progress": the driver polls `getResultUrl` until the result comes. */
class QueryInProgress {
  readonly queryId: string;
  constructor(queryId: string) {
    this.queryId = queryId;
  }
}

/** A name as Snowflake resolves it: `"Name"` exactly, anything else upper-case. */
function resolvedName(name: string | null): string | undefined {
  if (!name) return undefined;
  return /^".*"$/.test(name) ? name.slice(1, -1).replaceAll('""', '"') : name.toUpperCase();
}

/** The token a request carries (`Authorization: Snowflake Token="..."`). */
function tokenOf(req: http.IncomingMessage): string {
  return /Snowflake Token="([^"]+)"/.exec(req.headers.authorization ?? '')?.[1] ?? '';
}

/**
 * The session parameters a login response reports (the driver reads its keep-alive settings
 * from them, not from its own options): the client's keep-alive request, or Snowflake's defaults.
 */
function echoedParameters(data: LoginData): { name: string; value: unknown }[] {
  const asked = data.SESSION_PARAMETERS ?? {};
  return [
    { name: 'CLIENT_SESSION_KEEP_ALIVE', value: asked.CLIENT_SESSION_KEEP_ALIVE === true },
    {
      name: 'CLIENT_SESSION_KEEP_ALIVE_HEARTBEAT_FREQUENCY',
      value: Number(asked.CLIENT_SESSION_KEEP_ALIVE_HEARTBEAT_FREQUENCY ?? 3600),
    },
  ];
}
