/**
 * One Snowflake session of the stand-in: its own DuckDB connection (so temporary tables and
 * transactions are per session, as in Snowflake) and Snowflake's statement semantics where
 * they differ from DuckDB's:
 * - a failed statement inside an explicit transaction undoes only itself; the transaction stays
 *   open until COMMIT or ROLLBACK (DuckDB aborts the whole transaction, so the session keeps a
 *   journal of the transaction's statements and replays them after DuckDB's rollback);
 * - DDL inside a transaction commits the transaction first;
 * - DML needs a warehouse the session may use (error 000606 otherwise);
 * - a MERGE where one target row matches several source rows fails (merge-check.ts);
 * - an INSERT whose VALUES clause calls ARRAY_CONSTRUCT fails (array-construct.ts);
 * - DML on a table another session's open transaction wrote waits for it, at most the session's
 *   LOCK_TIMEOUT (stand-in-locks.ts);
 * - stage-based binds (`CREATE TEMPORARY STAGE SYSTEM$BIND`, `PUT`) are refused, and counted.
 */
import { StatementType, type DuckDBConnection, type DuckDBResultReader, type DuckDBValue } from '@duckdb/node-api';
import { duplicateSourceCheck } from './merge-check.ts';
import { appendRows } from './stand-in-append.ts';
import { type QueryHistoryEntry, withQueryHistory } from './stand-in-query-history.ts';
import type { StandInClock } from './stand-in-clock.ts';
import type { LockingSession, TableLocks } from './stand-in-locks.ts';
import {
  encodeResult,
  literalResult,
  rowTypes,
  singleRow,
  type EncodedResult,
  type RowType,
} from './result-encoding.ts';
import {
  duplicateMergeRow,
  fromDuckDb,
  insufficientPrivileges,
  missingDatabase,
  noWarehouse,
  SnowflakeStandInError,
  stageBindRefused,
  statementCount,
  syntaxError,
} from './snowflake-errors.ts';
import { leadingKeyword, rewriteSql, rewriteStatements } from './sql-rewrite.ts';
import { withTableComments } from './create-table-comments.ts';
import { checkValuesClause } from './array-construct.ts';
import { needsWarehouse, type WarehouseMeter } from './stand-in-warehouse.ts';

/** A bind as `snowflake-sdk` sends it: one value, or one value per row (array binds). */
export interface WireBind {
  readonly type: string;
  readonly value: string | null | (string | null)[];
}

/** A result with the statement type id the driver reads (DML 0x3xxx, DDL >= 0x6000). */
export interface StatementResult extends EncodedResult {
  readonly statementTypeId: number;
}

/** Counters the tests assert on (shared by every session of one stand-in). */
export interface StandInStats {
  logins: number;
  statements: number;
  /** Attempts at the stage-based bind path; the connector must never make one. */
  stageBindAttempts: number;
  /** The largest number of bind values one statement carried. */
  maxBindValues: number;
  /** Keep-alive heartbeats (`POST /session/heartbeat`) received. */
  heartbeats: number;
  /** Session tokens renewed with a master token. */
  tokenRenewals: number;
}

/** What a CREATE statement makes, as Snowflake's privileges name it (CREATE SCHEMA, CREATE TABLE, CREATE VIEW). */
export type CreatedObject = 'SCHEMA' | 'TABLE' | 'VIEW';

/** What a session gets from the account: its id, its DuckDB connection, shared locks and counters. */
export interface SessionContext {
  /** Snowflake's session id (`CURRENT_SESSION()`, the `session` column of SHOW TRANSACTIONS). */
  readonly id: string;
  /** A new transaction id, unique in the account. */
  readonly nextTransactionId: () => string;
  readonly connection: DuckDBConnection;
  /** The account's table locks, shared by every session. */
  readonly locks: TableLocks;
  readonly clock: StandInClock;
  /**
   * The objects the session's role may not create (it lacks CREATE SCHEMA on the database, or
   * CREATE TABLE / CREATE VIEW on the schema); temporary ones need no grant.
   */
  readonly cannotCreate: ReadonlySet<CreatedObject>;
  /** Whether the session has a warehouse it may use; DML needs one. */
  readonly warehouse: boolean;
  readonly stats: StandInStats;
  /** The account's warehouse meter: statements that need compute are recorded on it. */
  readonly meter: WarehouseMeter;
  /** Databases as the account stores them (case-sensitive), which three-part names must resolve to. */
  readonly databases: ReadonlySet<string>;
  /** Every statement with its session's QUERY_TAG, as QUERY_HISTORY shows them. */
  readonly history: QueryHistoryEntry[];
  /** Runs a DDL statement after every other session's DDL in flight (the account's catalog queue). */
  readonly catalogChange: <T>(work: () => Promise<T>) => Promise<T>;
}

interface Executed {
  readonly sql: string;
  readonly params: DuckDBValue[];
}

const TYPE_IDS: Readonly<Record<string, number>> = {
  SELECT: 0x1000,
  WITH: 0x1000,
  SHOW: 0x1000,
  DESCRIBE: 0x1000,
  INSERT: 0x3100,
  UPDATE: 0x3200,
  DELETE: 0x3300,
  MERGE: 0x3400,
  BEGIN: 0x5000,
  START: 0x5000,
  COMMIT: 0x5001,
  ROLLBACK: 0x5002,
  USE: 0x6000,
  CREATE: 0x6100,
  ALTER: 0x6200,
  DROP: 0x6300,
  COMMENT: 0x6200,
};
/** The columns Snowflake describes for a statement that returns no query result: its counts, or its status. */
const DESCRIBED_COLUMNS: Readonly<Record<string, readonly RowType[]>> = Object.fromEntries(
  Object.entries({
    INSERT: ['number of rows inserted'],
    UPDATE: ['number of rows updated', 'number of multi-joined rows updated'],
    DELETE: ['number of rows deleted'],
    MERGE: ['number of rows inserted', 'number of rows updated'],
    CREATE: ['status'],
    ALTER: ['status'],
    DROP: ['status'],
  }).map(([keyword, columns]) => [
    keyword,
    literalResult(
      columns.map((name) => ({ name, type: name === 'status' ? 'text' : 'fixed' })),
      [],
    ).rowtype,
  ]),
);
/** Statements that commit an open transaction first, as Snowflake's DDL does. */
const DDL = new Set(['CREATE', 'ALTER', 'DROP', 'COMMENT']);
const DML = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);
/** `ALTER SESSION SET` of a value the stand-in always has: autocommit on, AUTO timestamp input. */
const SESSION_DEFAULTS =
  /^\s*ALTER\s+SESSION\s+SET\s+(?:AUTOCOMMIT\s*=\s*TRUE|TIMESTAMP_INPUT_FORMAT\s*=\s*'AUTO')\s*;?\s*$/i;
/** `ALTER SESSION SET LOCK_TIMEOUT = <seconds>`: how long this session's statements wait for a lock. */
const LOCK_TIMEOUT = /^\s*ALTER\s+SESSION\s+SET\s+LOCK_TIMEOUT\s*=\s*(\d+)\s*;?\s*$/i;
/** `ALTER SESSION SET QUERY_TAG = '...'`: the tag QUERY_HISTORY shows on this session's statements. */
const QUERY_TAG = /^\s*ALTER\s+SESSION\s+SET\s+QUERY_TAG\s*=\s*'((?:[^'\\]|''|\\[\s\S])*)'\s*;?\s*$/i;

/** A Snowflake string literal's body as its text: `''` and `\'` are a quote, `\\` a backslash, `\n`, `\t`, `\r`, `\b`, `\0` what C means. */
function stringLiteralText(body: string): string {
  const escapes: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', b: '\b', '0': '\0' };
  return body.replace(/''|\\([\s\S])/g, (_unit, escaped?: string) =>
    escaped === undefined ? "'" : (escapes[escaped] ?? escaped),
  );
}

/** A three-part name's database part: `DB.SCHEMA.NAME`, each part quoted or not. */
const PART = `(?:"(?:[^"]|"")+"|[A-Za-z_][\\w$]*)`;
const THREE_PART = new RegExp(`(?<![\\w".])(${PART})\\s*\\.\\s*${PART}\\s*\\.\\s*${PART}`, 'g');
/** Snowflake's default LOCK_TIMEOUT: 12 hours. */
const DEFAULT_LOCK_TIMEOUT_SECONDS = 43_200;
/** The driver's stage bind path: `CREATE TEMPORARY STAGE SYSTEM$BIND...`, then `PUT file://...`. */
const STAGE_PATH = /^\s*(?:PUT\s|CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?STAGE\b)|SYSTEM\$BIND/i;
/** Rows per DuckDB statement when an array-bound INSERT is expanded to a multi-row VALUES. */
const VALUES_ROWS_PER_STATEMENT = 500;

export class StandInSession implements LockingSession {
  readonly #ctx: SessionContext;
  /** Statements of the open transaction, or undefined outside one. */
  #journal: Executed[] | undefined;
  #transactionId: string | undefined;
  #lockTimeoutSeconds = DEFAULT_LOCK_TIMEOUT_SECONDS;
  #queryTag = '';
  #running = false;
  /** When the last statement ended (stand-in clock). */
  #lastActive: number;

  constructor(ctx: SessionContext) {
    this.#ctx = ctx;
    this.#lastActive = ctx.clock.now();
  }

  get id(): string {
    return this.#ctx.id;
  }

  idleSince(): number | undefined {
    return this.#running ? undefined : this.#lastActive;
  }

  /** Runs one statement; `queryId` is the id Snowflake gives it (a lock error names the holder's). */
  async execute(
    sqlText: string,
    bindings: Readonly<Record<string, WireBind>> | undefined,
    queryId: string,
  ): Promise<StatementResult> {
    this.#ctx.stats.statements++;
    this.#ctx.history.push({ session: this.#ctx.id, queryText: sqlText, queryTag: this.#queryTag });
    this.#running = true;
    // Placed on the meter's clock, lasting what the statement really took (a bench's scaled
    // clock would otherwise multiply the stand-in's own run time).
    const started = this.#ctx.meter.now();
    const real = performance.now();
    try {
      return await this.#execute(sqlText, bindings, queryId);
    } finally {
      if (needsWarehouse(sqlText) && this.#ctx.warehouse)
        this.#ctx.meter.use(started, started + (performance.now() - real));
      this.#running = false;
      this.#lastActive = this.#ctx.clock.now();
      // An autocommit statement held its table only while it ran.
      if (this.#journal) this.#ctx.locks.activity();
      else this.#ctx.locks.release(this.#ctx.id);
    }
  }

  /**
   * A describe-only request (`describeOnly: true`): Snowflake compiles the statement and answers
   * its columns and statement type with no rows; nothing runs. Several statements are refused as
   * Snowflake refuses them when MULTI_STATEMENT_COUNT is 1, its default.
   */
  async describe(sqlText: string): Promise<StatementResult> {
    this.#ctx.stats.statements++;
    this.#checkDatabases(sqlText);
    const keyword = leadingKeyword(sqlText);
    const sql = rewriteSql(sqlText);
    try {
      const statements = await this.#ctx.connection.extractStatements(sql);
      if (statements.count > 1) throw statementCount(statements.count);
      const prepared = await statements.prepare(0);
      // Snowflake's WITH ends in a query: DuckDB would take `WITH ... INSERT` and run it.
      const dml = keyword === 'WITH' ? /\b(INSERT|UPDATE|DELETE|MERGE)\b/i.exec(sqlText) : null;
      if (dml && prepared.statementType !== StatementType.SELECT) {
        prepared.destroySync();
        throw syntaxError(sqlText, dml.index, dml[1]!);
      }
      const names = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnName(i));
      const types = Array.from({ length: prepared.columnCount }, (_, i) => prepared.columnType(i));
      prepared.destroySync();
      const rowtype = (DESCRIBED_COLUMNS[keyword] ?? rowTypes(names, types, sqlText)) as RowType[];
      return { rowtype, rowset: [], statementTypeId: TYPE_IDS[keyword] ?? 0x6000 };
    } catch (error) {
      throw error instanceof SnowflakeStandInError ? error : fromDuckDb(error);
    }
  }

  async #execute(
    sqlText: string,
    bindings: Readonly<Record<string, WireBind>> | undefined,
    queryId: string,
  ): Promise<StatementResult> {
    const keyword = leadingKeyword(sqlText);
    if (STAGE_PATH.test(sqlText)) {
      this.#ctx.stats.stageBindAttempts++;
      throw stageBindRefused();
    }
    if (SESSION_DEFAULTS.test(sqlText)) return status(0x6000);
    const tag = QUERY_TAG.exec(sqlText);
    if (tag) {
      this.#queryTag = stringLiteralText(tag[1]!);
      return status(0x6000);
    }
    this.#checkDatabases(sqlText);
    const lockTimeout = LOCK_TIMEOUT.exec(sqlText);
    if (lockTimeout) {
      this.#lockTimeoutSeconds = Number(lockTimeout[1]);
      return status(0x6000);
    }
    const rows = bindRows(bindings);
    this.#ctx.stats.maxBindValues = Math.max(this.#ctx.stats.maxBindValues, rows.length * (rows[0]?.length ?? 0));
    const typeId = TYPE_IDS[keyword] ?? 0x6000;
    switch (keyword) {
      case 'BEGIN':
      case 'START':
        if (!this.#journal) {
          await this.#run('BEGIN TRANSACTION');
          this.#journal = [];
          this.#transactionId = this.#ctx.nextTransactionId();
        }
        return status(typeId);
      case 'COMMIT':
      case 'ROLLBACK':
        await this.#endTransaction(keyword);
        return status(typeId);
    }
    if (DML.has(keyword) && !this.#ctx.warehouse) throw noWarehouse();
    if (keyword === 'INSERT') checkValuesClause(sqlText);
    if (DDL.has(keyword)) {
      this.#checkWritable(sqlText);
      await this.#endTransaction('COMMIT');
    }
    const reading = await withQueryHistory(sqlText, this.#ctx.connection, this.#ctx.history);
    const [sql = '', ...comments] = rewriteStatements(reading.replace(/\bCURRENT_SESSION\(\)/gi, `'${this.#ctx.id}'`));
    const transaction = this.#transactionId ?? this.#ctx.nextTransactionId();
    await this.#ctx.locks.acquire(sql, {
      session: this,
      transaction,
      queryId,
      lockTimeoutSeconds: this.#lockTimeoutSeconds,
    });
    const executed: Executed[] = [];
    try {
      // Snowflake serializes catalog changes itself (two CREATE TABLE IF NOT EXISTS at once both
      // succeed); DuckDB fails the later one, so the account runs DDL one statement at a time.
      const run = () =>
        withTableComments(this.#ctx.connection, sql, comments, () => this.#statement(keyword, sql, rows, executed));
      const result = await (DDL.has(keyword) ? this.#ctx.catalogChange(run) : run());
      this.#journal?.push(...executed);
      return { ...result, statementTypeId: typeId };
    } catch (error) {
      if (this.#journal) await this.#undoStatement();
      throw error instanceof SnowflakeStandInError ? error : fromDuckDb(error);
    }
  }

  /**
   * Snowflake resolves an unquoted name upper-case and a quoted one exactly; DuckDB under the
   * stand-in ignores case, so the database of each three-part name is checked here.
   */
  #checkDatabases(sqlText: string): void {
    const code = sqlText.replace(/'(?:[^']|'')*'/g, "''");
    for (const [, part] of code.matchAll(THREE_PART)) {
      const name = part!.startsWith('"') ? part!.slice(1, -1).replaceAll('""', '"') : part!.toUpperCase();
      if (!this.#ctx.databases.has(name)) throw missingDatabase(name);
    }
  }

  /** The open transaction's id, if any (SHOW TRANSACTIONS lists it). */
  get transactionId(): string | undefined {
    return this.#transactionId;
  }

  /** SYSTEM$ABORT_TRANSACTION from another session: rolls back this session's open transaction. */
  async abortTransaction(): Promise<void> {
    await this.#endTransaction('ROLLBACK');
  }

  /** Rolls back whatever is open (Snowflake rolls back an open transaction when a session ends). */
  async close(): Promise<void> {
    await this.#endTransaction('ROLLBACK');
    this.#ctx.connection.closeSync();
  }

  async #statement(keyword: string, sql: string, rows: DuckDBValue[][], executed: Executed[]): Promise<EncodedResult> {
    const runLogged = async (text: string, params: DuckDBValue[]) => {
      const result = await this.#run(text, params);
      executed.push({ sql: text, params });
      return result;
    };
    if (keyword === 'MERGE') return this.#merge(sql, rows[0] ?? [], runLogged);
    const results: DuckDBResultReader[] = [];
    let appended = 0;
    const values =
      keyword === 'INSERT' && rows.length > 1 ? /^([\s\S]*\bVALUES\s*)(\([^()]*\))\s*;?\s*$/.exec(sql) : null;
    if (values) {
      const chunks = [];
      for (let i = 0; i < rows.length; i += VALUES_ROWS_PER_STATEMENT) {
        const chunk = rows.slice(i, i + VALUES_ROWS_PER_STATEMENT);
        chunks.push({ sql: values[1] + chunk.map(() => values[2]).join(', '), params: chunk.flat() });
      }
      if (await this.#atomically(() => appendRows(this.#ctx.connection, sql, rows))) {
        appended = rows.length;
        executed.push(...chunks); // the same rows as SQL, should the transaction be replayed
      } else {
        for (const chunk of chunks) results.push(await runLogged(chunk.sql, chunk.params));
      }
    } else {
      for (const params of rows.length ? rows : [[]]) results.push(await runLogged(sql, params));
    }
    const count = () => String(results.reduce((n, r) => n + Number(r.getRows()[0]?.[0] ?? 0), appended));
    switch (keyword) {
      case 'INSERT':
        return singleRow([{ name: 'number of rows inserted', value: count(), type: 'fixed' }]);
      case 'UPDATE':
        return singleRow([
          { name: 'number of rows updated', value: count(), type: 'fixed' },
          { name: 'number of multi-joined rows updated', value: '0', type: 'fixed' },
        ]);
      case 'DELETE':
        return singleRow([{ name: 'number of rows deleted', value: count(), type: 'fixed' }]);
      default:
        return DDL.has(keyword) || keyword === 'USE' ? status(0) : encodeResult(results[results.length - 1]!, sql);
    }
  }

  async #merge(
    sql: string,
    params: DuckDBValue[],
    run: (sql: string, params: DuckDBValue[]) => Promise<DuckDBResultReader>,
  ): Promise<EncodedResult> {
    const check = duplicateSourceCheck(sql);
    if (!check)
      throw new SnowflakeStandInError(
        '001003',
        '42000',
        'SQL compilation error:\nthe stand-in cannot parse this MERGE',
      );
    if ((await this.#run(check.sql, params.slice(0, check.params))).getRows().length) throw duplicateMergeRow();
    const actions = (await run(`${sql.replace(/;\s*$/, '')} RETURNING MERGE_ACTION`, params))
      .getRows()
      .map((r) => r[0]);
    const counted = (action: string) => String(actions.filter((a) => a === action).length);
    return singleRow([
      { name: 'number of rows inserted', value: counted('INSERT'), type: 'fixed' },
      { name: 'number of rows updated', value: counted('UPDATE'), type: 'fixed' },
    ]);
  }

  /** Runs `work` as one statement would: all or nothing, inside or outside a transaction. */
  async #atomically<T>(work: () => Promise<T>): Promise<T> {
    if (this.#journal) return work(); // a failure undoes it with the rest of the statement
    await this.#run('BEGIN TRANSACTION');
    try {
      const result = await work();
      await this.#run('COMMIT');
      return result;
    } catch (error) {
      await this.#run('ROLLBACK');
      throw error;
    }
  }

  /** DuckDB aborted the transaction; restore Snowflake's "only the statement failed". */
  async #undoStatement(): Promise<void> {
    await this.#run('ROLLBACK');
    await this.#run('BEGIN TRANSACTION');
    for (const step of this.#journal ?? []) await this.#run(step.sql, step.params);
  }

  async #endTransaction(how: 'COMMIT' | 'ROLLBACK'): Promise<void> {
    if (!this.#journal) return;
    this.#journal = undefined;
    this.#transactionId = undefined;
    try {
      await this.#run(how);
    } finally {
      // Only now: a waiter must see what this transaction committed.
      this.#ctx.locks.release(this.#ctx.id);
    }
  }

  #checkWritable(sqlText: string): void {
    if (/^\s*CREATE\s+(?:OR\s+REPLACE\s+)?TEMP(?:ORARY)?\s/i.test(sqlText)) return;
    const object = /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(SCHEMA|TABLE|VIEW)\b/i.exec(sqlText)?.[1]?.toUpperCase();
    // Snowflake names the container whose privilege is missing: a schema's database, a table's or view's schema.
    if (object && this.#ctx.cannotCreate.has(object as CreatedObject))
      throw insufficientPrivileges(object === 'SCHEMA' ? 'database' : 'schema');
    // A role that may not create tables (views) here owns none, and only the owner may alter one or set its comments.
    const changed = /^\s*(?:ALTER\s+(TABLE|VIEW)|COMMENT\s+ON\s+(TABLE|VIEW|COLUMN))\s+(?:IF\s+EXISTS\s+)?(\S+)/i.exec(
      sqlText,
    );
    if (changed) {
      const [, altered, commented, target = ''] = changed;
      const kind = (altered ?? commented ?? '').toUpperCase() === 'VIEW' ? 'VIEW' : 'TABLE';
      if (!this.#ctx.cannotCreate.has(kind)) return;
      const parts = target.split('.');
      if (commented?.toUpperCase() === 'COLUMN') parts.pop();
      const name = parts.at(-1) ?? '';
      const stored = name.startsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name.toUpperCase();
      throw insufficientPrivileges(`${kind.toLowerCase()} '${stored}'`);
    }
  }

  async #run(sql: string, params: DuckDBValue[] = []): Promise<DuckDBResultReader> {
    return params.length ? this.#ctx.connection.runAndReadAll(sql, params) : this.#ctx.connection.runAndReadAll(sql);
  }
}

/** Row-major bind values from Snowflake's bind map (array binds arrive column-major). */
function bindRows(bindings: Readonly<Record<string, WireBind>> | undefined): DuckDBValue[][] {
  const binds = Object.entries(bindings ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, bind]) => bind);
  if (!binds.length) return [];
  const columns = binds.map((b) => (Array.isArray(b.value) ? b.value : [b.value]).map((v) => bindValue(b.type, v)));
  return columns[0]!.map((_, row) => columns.map((column) => column[row] ?? null));
}

function bindValue(type: string, value: string | null): DuckDBValue {
  if (value === null) return null;
  if (type === 'BOOLEAN') return value === 'true' || value === '1';
  if (type === 'REAL') return Number(value);
  return value;
}

function status(statementTypeId: number): StatementResult {
  return { ...singleRow([{ name: 'status', value: 'Statement executed successfully.' }]), statementTypeId };
}
