/**
 * A thin promise layer over one `snowflake-sdk` connection (one Snowflake session): execute
 * with binds, transactions, close. The driver is imported here, lazily, so it is only loaded
 * when Snowflake is the destination, and only after its network probes are switched off.
 */
import type { Binds, Connection, ConnectionOptions, SnowflakeError } from 'snowflake-sdk';
import { DestinationError } from '../../src/errors.ts';
import { redact } from '../../src/log/redact.ts';
import { inTransaction } from '../../src/destination/transaction.ts';
import { SNOWFLAKE_DIALECT } from './snowflake-dialect.ts';

export type SnowflakeRow = Record<string, unknown>;

/** One open Snowflake session. */
export interface SnowflakeClient {
  /**
   * Runs one statement. `binds` is one value per `?`, or one such array per row (an array
   * bind: the statement runs once per row, in one request).
   * @example await client.execute('DELETE FROM T WHERE "ID" = ?', ['web_1'])
   */
  execute(
    sql: string,
    binds?: readonly (string | null)[] | readonly (readonly (string | null)[])[],
  ): Promise<SnowflakeRow[]>;
  /**
   * Has Snowflake compile one statement without running it (`describeOnly`); Snowflake refuses
   * a text of several statements (MULTI_STATEMENT_COUNT is 1 unless a request says otherwise).
   */
  describe(sql: string): Promise<void>;
  /**
   * Runs one statement and streams its rows (arrays, in column order) as Snowflake hands them:
   * numbers and dates as Snowflake's text, variants as JSON text.
   */
  stream(sql: string): Promise<StreamedResult>;
  /** Runs `work` inside BEGIN ... COMMIT; any error rolls back (Snowflake would keep the transaction open). */
  transaction<T>(work: () => Promise<T>): Promise<T>;
  /** Ends the session (`destroy`); safe to call twice. */
  close(): Promise<void>;
}

/** A streamed result: its columns (Snowflake's name and type: `fixed`, `real`, `text`, `variant` ...) and rows. */
export interface StreamedResult {
  readonly columns: readonly { readonly name: string; readonly type: string; readonly scale: number }[];
  readonly rows: AsyncIterable<unknown[]>;
}

/** `aivis:<workspace>:<run id>` for a command's run, else `aivis` (docs/destinations/snowflake.md, "Cost"). */
export function queryTag(run: { runId: string; workspace: string } | undefined): string {
  return run ? `aivis:${run.workspace}:${run.runId}` : 'aivis';
}

/** Platform detection probes cloud metadata servers at load time; connection-shape telemetry phones home. */
const DRIVER_ENV: Readonly<Record<string, string>> = {
  SNOWFLAKE_DISABLE_PLATFORM_DETECTION: 'true',
  SF_TELEMETRY_DISABLE_CONNECTION_SHAPE: '1',
};

let driver: Promise<typeof import('snowflake-sdk')> | undefined;

function loadDriver(): Promise<typeof import('snowflake-sdk')> {
  for (const [name, value] of Object.entries(DRIVER_ENV)) process.env[name] ??= value;
  driver ??= import('snowflake-sdk').then((module) => {
    const sdk = (module as { default?: typeof import('snowflake-sdk') }).default ?? module;
    // The SDK's own log would bypass our redaction; our errors carry what a user needs.
    sdk.configure({ logLevel: 'OFF', additionalLogToConsole: false });
    return sdk;
  });
  return driver;
}

/**
 * Opens a session with aivis's session parameters; `queryTag` is its QUERY_TAG, which
 * QUERY_HISTORY (and the cost views built on it) shows on every statement of the session.
 */
export async function connectSnowflake(options: ConnectionOptions, queryTag: string): Promise<SnowflakeClient> {
  const sdk = await loadDriver();
  const connection = sdk.createConnection(options);
  await new Promise<void>((resolve, reject) =>
    connection.connect((error) =>
      error ? reject(snowflakeError(error, `login as ${options.username} on account ${options.account}`)) : resolve(),
    ),
  );
  const client = createClient(connection);
  try {
    // The tag first, so every later statement of the session carries it.
    for (const statement of [`ALTER SESSION SET QUERY_TAG = ${SNOWFLAKE_DIALECT.literal(queryTag)}`, ...SESSION_SETUP])
      await client.execute(statement);
  } catch (error) {
    await client.close();
    throw error;
  }
  return client;
}

/**
 * How long a statement waits for a table lock another transaction holds before Snowflake fails
 * it (error 000625). Longer than the 5 minutes after which Snowflake aborts a blocking
 * transaction that sits idle (one a killed run or a forgotten worksheet left open), so such a
 * transaction only delays a run; far shorter than Snowflake's default of 12 hours, so a
 * transaction that never ends fails the run with a message instead of hanging it.
 */
export const LOCK_TIMEOUT_SECONDS = 600;

/**
 * Session parameters our SQL relies on, whatever the account or user sets: statements
 * outside BEGIN commit on their own (the lock session's UPDATEs must), ISO-8601 text such as
 * `2026-01-02T03:04:05.123456Z` casts to TIMESTAMP_TZ, and lock waits are bounded.
 */
const SESSION_SETUP = [
  'ALTER SESSION SET AUTOCOMMIT = TRUE',
  "ALTER SESSION SET TIMESTAMP_INPUT_FORMAT = 'AUTO'",
  `ALTER SESSION SET LOCK_TIMEOUT = ${LOCK_TIMEOUT_SECONDS}`,
];

function createClient(connection: Connection): SnowflakeClient {
  let closed = false;
  const execute: SnowflakeClient['execute'] = (sql, binds) =>
    new Promise((resolve, reject) => {
      connection.execute({
        sqlText: sql,
        ...(binds?.length ? { binds: binds as Binds } : {}),
        fetchAsString: ['Number', 'JSON'],
        complete: (error, _statement, rows) =>
          error ? reject(snowflakeError(error, firstWords(sql))) : resolve((rows ?? []) as SnowflakeRow[]),
      });
    });
  return {
    execute,
    describe: (sql) =>
      new Promise((resolve, reject) => {
        connection.execute({
          sqlText: sql,
          describeOnly: true,
          complete: (error) => (error ? reject(snowflakeError(error, firstWords(sql))) : resolve()),
        });
      }),
    stream: (sql) =>
      new Promise((resolve, reject) => {
        connection.execute({
          sqlText: sql,
          streamResult: true,
          rowMode: 'array',
          fetchAsString: ['Number', 'Date', 'JSON'],
          complete: (error, statement) => {
            if (error) return reject(snowflakeError(error, firstWords(sql)));
            const columns = (statement.getColumns() ?? []).map((c) => ({
              name: c.getName(),
              type: c.getType(),
              scale: c.getScale(),
            }));
            const rows = statement.streamRows();
            async function* failures() {
              try {
                for await (const row of rows) yield row as unknown[];
              } catch (error) {
                throw snowflakeError(error as SnowflakeError, firstWords(sql));
              }
            }
            resolve({ columns, rows: failures() });
          },
        });
      }),
    // Snowflake leaves a transaction open after a failed statement: the shared helper rolls it back.
    transaction: (work) => inTransaction(execute, work),
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => connection.destroy(() => resolve()));
    },
  };
}

/** `MERGE INTO "DB"."S"."T"`: enough of a statement to say which one failed, no values. */
function firstWords(sql: string): string {
  return sql.trim().split(/\s+/).slice(0, 3).join(' ');
}

/** A statement or login Snowflake refused; `snowflakeCode` lets callers explain known refusals. */
export class SnowflakeStatementError extends DestinationError {
  /** Snowflake's error code, e.g. `003001` (insufficient privileges). */
  readonly snowflakeCode: string | undefined;
  constructor(message: string, snowflakeCode: string | undefined) {
    super(message);
    this.snowflakeCode = snowflakeCode;
  }
}

/** Snowflake's code for a statement that gave up waiting for a lock another transaction holds. */
const LOCK_NOT_RELEASED = '000625';
/** The driver's code for a statement on a session Snowflake has ended. */
const SESSION_ENDED = '407002';

/** What a user can do about a refusal whose message alone does not say it. */
const ADVICE: Readonly<Record<string, string>> = {
  [LOCK_NOT_RELEASED]:
    `; another transaction held this table longer than aivis waits for a lock (LOCK_TIMEOUT = ${LOCK_TIMEOUT_SECONDS} s): ` +
    'find it with SHOW TRANSACTIONS and end it with SELECT SYSTEM$ABORT_TRANSACTION(<id>), or let it finish, then run aivis again',
  [SESSION_ENDED]:
    '; the Snowflake session has ended (Snowflake ends one after 4 hours without a request, which the keep-alive heartbeat prevents ' +
    'unless Snowflake was out of reach that long, or an administrator ended it); run aivis again: it resumes from the last committed flush',
};

/** The driver's error with Snowflake's code, SQL state and query id; never the bound values. */
function snowflakeError(error: SnowflakeError, action: string): SnowflakeStatementError {
  const code = error.code === undefined ? undefined : String(error.code);
  const details = [
    code ? `code ${code}` : '',
    error.sqlState ? `SQL state ${error.sqlState}` : '',
    error.data?.queryId ? `query ${error.data.queryId}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const advice = (code && ADVICE[code]) ?? '';
  const message = redact(
    `Snowflake: ${action} failed: ${error.message.replace(/\s*\n\s*/g, ' ')}${details ? ` (${details})` : ''}${advice}`,
  );
  return new SnowflakeStatementError(message, code);
}

/** Snowflake's error code of a failure from `execute`, if it was Snowflake's refusal. */
export function snowflakeCode(error: unknown): string | undefined {
  return error instanceof SnowflakeStatementError ? error.snowflakeCode : undefined;
}
