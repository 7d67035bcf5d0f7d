/**
 * The stand-in speaks the protocol the real `snowflake-sdk` expects and keeps the Snowflake
 * semantics our connector's correctness depends on.
 */
import type { Connection } from 'snowflake-sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { until } from '../../support/until.ts';
import { watch } from '../../support/watch.ts';
import { SESSION_IDLE_TIMEOUT_MS } from './stand-in-tokens.ts';
import { DATABASE, keyPairFiles, LOADER, startStandIn, WAREHOUSE, type StandInSetup } from './stand-in-fixture.ts';

type Sdk = typeof import('snowflake-sdk');
let sdk: Sdk;
let setup: StandInSetup;
const keys = keyPairFiles('key-pass-phrase');

beforeAll(async () => {
  const module = (await import('snowflake-sdk')) as Sdk & { default?: Sdk };
  sdk = module.default ?? module;
  sdk.configure({ logLevel: 'OFF' });
  setup = await startStandIn([{ name: 'KEY_USER', publicKeyPem: keys.publicKeyPem }]);
});
afterAll(() => setup.standIn.close());

async function connect(options: Record<string, unknown> = {}): Promise<Connection> {
  const connection = sdk.createConnection({
    account: 'aivis-test',
    username: LOADER.name,
    password: LOADER.password,
    accessUrl: setup.standIn.url,
    database: DATABASE,
    warehouse: WAREHOUSE,
    ...options,
  } as Parameters<Sdk['createConnection']>[0]);
  await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
  return connection;
}

function run(connection: Connection, sqlText: string, binds?: unknown[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) =>
    connection.execute({
      sqlText,
      ...(binds ? { binds: binds as never } : {}),
      fetchAsString: ['Number', 'JSON'],
      complete: (error, _s, rows) => (error ? reject(error) : resolve(rows ?? [])),
    }),
  );
}

const destroy = (c: Connection) => new Promise<void>((resolve) => c.destroy(() => resolve()));

describe('Snowflake stand-in', () => {
  it('refuses a wrong password with Snowflake code 390100', async () => {
    await expect(connect({ password: 'wrong' })).rejects.toMatchObject({
      code: '390100',
      message: 'Incorrect username or password was specified.',
    });
  });

  it('accepts a key-pair JWT signed by the registered key and refuses another key', async () => {
    const ok = await connect({
      username: 'key_user',
      password: undefined,
      authenticator: 'SNOWFLAKE_JWT',
      privateKeyPath: keys.privateKeyFile,
      privateKeyPass: 'key-pass-phrase',
    });
    expect(await run(ok, 'SELECT 1 AS one')).toEqual([{ ONE: '1' }]);
    await destroy(ok);
    const other = keyPairFiles('other');
    await expect(
      connect({
        username: 'key_user',
        password: undefined,
        authenticator: 'SNOWFLAKE_JWT',
        privateKeyPath: other.privateKeyFile,
        privateKeyPass: 'other',
      }),
    ).rejects.toMatchObject({ code: '390144' });
  });

  it('folds unquoted names to upper case and encodes every type as Snowflake does', async () => {
    const c = await connect();
    await run(c, 'CREATE SCHEMA analytics.types_case');
    await run(
      c,
      'CREATE TABLE analytics.types_case.t (id VARCHAR, n NUMBER(38,0), f FLOAT, b BOOLEAN, ts TIMESTAMP_TZ, v VARIANT)',
    );
    await run(
      c,
      `INSERT INTO "ANALYTICS"."TYPES_CASE"."T" SELECT 'a', '9007199254740993'::NUMBER(38,0), 0.1::FLOAT, TRUE, '2026-01-02T03:04:05.123456Z'::TIMESTAMP_TZ, PARSE_JSON('{"k":[1,2]}')`,
    );
    const [row] = await run(c, 'select id, n, f, b, ts, v from analytics.types_case.t');
    const ts = row!.TS as Date & { getEpochSeconds(): number; getNanoSeconds(): number };
    expect({ ...row, TS: [ts.getEpochSeconds(), ts.getNanoSeconds()] }).toEqual({
      ID: 'a',
      N: '9007199254740993',
      F: '0.1',
      B: true,
      TS: [1767323045, 123456000],
      V: '{\n  "k": [\n    1,\n    2\n  ]\n}',
    });
    await destroy(c);
  });

  it('prints a VARIANT as Snowflake does: keys sorted, indented, exact NUMBERs, DOUBLEs (exponent or too long) at 16 digits', async () => {
    const c = await connect();
    const json =
      '{"b":[123.12,1.912e2,-17,-0,0.30000000000000004,1e-7,12345678901234567890123456789012345678,123456789012345678901234567890123456789],"a":{"z":null,"é":"日本","y":true},"c":[]}';
    const [row] = await run(c, 'SELECT PARSE_JSON(?) AS v', [json]);
    expect(row!.V).toBe(
      [
        '{',
        '  "a": {',
        '    "y": true,',
        '    "z": null,',
        '    "é": "日本"',
        '  },',
        '  "b": [',
        '    123.12,',
        '    1.912000000000000e+02,',
        '    -17,',
        '    0,',
        '    0.30000000000000004,',
        '    1.000000000000000e-07,',
        '    12345678901234567890123456789012345678,',
        '    1.234567890123457e+38',
        '  ],',
        '  "c": []',
        '}',
      ].join('\n'),
    );
    await destroy(c);
  });

  it('keeps an ARRAY column: ARRAY_CONSTRUCT in INSERT ... SELECT, the driver parses it (type array); refused in VALUES (002014)', async () => {
    const c = await connect();
    await run(c, 'CREATE TEMPORARY TABLE arrays (id VARCHAR, tags ARRAY)');
    await run(
      c,
      "INSERT INTO arrays SELECT 'a', ARRAY_CONSTRUCT('crm', 'Comparison') UNION ALL SELECT 'b', ARRAY_CONSTRUCT(1, 'x)', ARRAY_CONSTRUCT()) UNION ALL SELECT 'c', NULL",
    );
    const rows = await new Promise<{ rows: unknown[]; types: string[] }>((resolve, reject) =>
      c.execute({
        sqlText: 'SELECT tags FROM arrays ORDER BY id',
        fetchAsString: ['JSON'],
        complete: (error, statement, rows) =>
          error
            ? reject(error)
            : resolve({
                rows: (rows ?? []).map((r) => r.TAGS),
                types: (statement.getColumns() ?? []).map((col) => col.getType()),
              }),
      }),
    );
    expect(rows).toEqual({ rows: [['crm', 'Comparison'], [1, 'x)', []], null], types: ['array'] });
    await expect(run(c, "INSERT INTO arrays VALUES ('d', ARRAY_CONSTRUCT('a', 'b)'))")).rejects.toMatchObject({
      code: '002014',
      message: "SQL compilation error:\nInvalid expression [ARRAY_CONSTRUCT('a', 'b)')] in VALUES clause",
    });
    await destroy(c);
  });

  it.each([
    ['a lone high surrogate escape', '{"a":"x\\ud800y"}', 'invalid Unicode escape (lone high surrogate), pos 7'],
    ['a lone low surrogate escape', '["\\udc00"]', 'invalid Unicode escape (lone low surrogate), pos 2'],
    ['NaN', '{"a":NaN}', 'unknown keyword "NaN", pos 5'],
    ['-Infinity', '[1,-Infinity]', 'invalid number, pos 3'],
    ['trailing content', '{"a":1} x', 'more than one document in the input, pos 8'],
    ['a number beyond double range', '{"huge":1e400}', 'number out of range, pos 8'],
    ['a duplicate key', '{"a":1,"a":2}', 'duplicate object attribute "a", pos 7'],
    ['a trailing comma', '[1,]', 'unexpected character, pos 3'],
    ['an unfinished string', '{"a":"b', 'unfinished string, pos 5'],
  ])('PARSE_JSON refuses %s with Snowflake’s error 100069 (22P02), bound or from a table', async (_what, text, why) => {
    const c = await connect();
    const refused = { code: '100069', sqlState: '22P02', message: `Error parsing JSON: ${why}` };
    await expect(run(c, 'SELECT PARSE_JSON(?) AS v', [text])).rejects.toMatchObject(refused);
    await run(c, 'CREATE TEMPORARY TABLE staged (t VARCHAR)');
    await run(c, 'INSERT INTO staged (t) VALUES (?), (?)', ['{"ok":1}', text]);
    await expect(run(c, 'SELECT PARSE_JSON(t) AS v FROM staged')).rejects.toMatchObject(refused);
    await destroy(c);
  });

  it('PARSE_JSON of an empty or whitespace-only text is NULL; valid JSON with every escape is taken', async () => {
    const c = await connect();
    const rows = await run(c, 'SELECT PARSE_JSON(?) AS a, PARSE_JSON(?) AS b, PARSE_JSON(?) AS c', [
      '',
      ' \n\t ',
      '{"p":"\\ud83d\\ude00","e":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9","n":[-0,1e-400,1.5E+3]}',
    ]);
    expect(rows[0]!.A).toBeNull();
    expect(rows[0]!.B).toBeNull();
    expect(JSON.parse(rows[0]!.C as string)).toEqual({ p: '😀', e: '"\\/\b\f\n\r\té', n: [0, 0, 1500] });
    await destroy(c);
  });

  it('returns a FLOAT with 15 significant digits, as Snowflake’s JSON result format does', async () => {
    const c = await connect();
    const floats = [
      123.456,
      1.2345678901234567e37,
      Math.PI,
      0.1,
      5e-324,
      1.7976931348623157e308,
      -0.000012345678901234567,
    ];
    const rows = await run(c, `SELECT ${floats.map((_f, i) => `?::FLOAT AS f${i}`).join(', ')}`, floats.map(String));
    expect(Object.values(rows[0]!)).toEqual([
      '123.456',
      '1.23456789012346e+37',
      '3.14159265358979',
      '0.1',
      '4.94065645841247e-324',
      '1.79769313486232e+308',
      '-1.23456789012346e-05',
    ]);
    await destroy(c);
  });

  it('describeOnly compiles without running: the columns, no rows; several statements are 000008, a WITH before DML a syntax error', async () => {
    const c = await connect({ schema: 'PUBLIC' });
    try {
      await run(c, 'CREATE TABLE DESCRIBED (ID NUMBER(38,0), NAME TEXT)');
      const describe = (sqlText: string) =>
        new Promise<string[]>((resolve, reject) =>
          c.execute({
            sqlText,
            describeOnly: true,
            complete: (error, statement, rows) =>
              error
                ? reject(error)
                : resolve([...(statement.getColumns() ?? []).map((col) => col.getName()), `rows ${rows?.length ?? 0}`]),
          }),
        );
      expect(await describe('SELECT id, name FROM described')).toEqual(['ID', 'NAME', 'rows 0']);
      expect(await describe("INSERT INTO DESCRIBED VALUES (1, 'a')")).toEqual(['number of rows inserted', 'rows 0']);
      expect(await run(c, 'SELECT COUNT(*) AS N FROM DESCRIBED')).toEqual([{ N: '0' }]);
      await expect(describe('SELECT 1; DELETE FROM DESCRIBED')).rejects.toMatchObject({
        code: '000008',
        message: 'Actual statement count 2 did not match the desired statement count 1.',
      });
      await expect(
        describe('WITH n AS (SELECT 1 AS id)\nINSERT INTO DESCRIBED (ID) SELECT id FROM n'),
      ).rejects.toMatchObject({
        code: '001003',
        message: "SQL compilation error:\nsyntax error line 2 at position 0 unexpected 'INSERT'.",
      });
    } finally {
      await destroy(c);
    }
  });

  it('runs column-major array binds as one statement per row', async () => {
    const c = await connect();
    await run(c, 'CREATE SCHEMA analytics.binds');
    await run(c, 'CREATE TABLE analytics.binds.t (id VARCHAR, n VARCHAR)');
    const rows = Array.from({ length: 1200 }, (_, i) => [`r${i}`, i % 2 ? null : String(i)]);
    expect(await run(c, 'INSERT INTO analytics.binds.t VALUES (?, ?)', rows)).toEqual([
      { 'number of rows inserted': '1200' },
    ]);
    expect(await run(c, 'SELECT COUNT(*) AS n, COUNT(n) AS filled FROM analytics.binds.t')).toEqual([
      { N: '1200', FILLED: '600' },
    ]);
    // One bad row fails the whole statement: no row of it lands.
    await run(c, 'CREATE TABLE analytics.binds.nums (id VARCHAR, n NUMBER(38,0))');
    const bad = [...Array.from({ length: 10 }, (_, i) => [`ok${i}`, String(i)]), ['bad', 'not a number']];
    await expect(run(c, 'INSERT INTO analytics.binds.nums VALUES (?, ?)', bad)).rejects.toMatchObject({
      code: '100038',
    });
    expect(await run(c, 'SELECT COUNT(*) AS n FROM analytics.binds.nums')).toEqual([{ N: '0' }]);
    await destroy(c);
  });

  it('fails a MERGE whose source has two rows for one target row (100090), as Snowflake does', async () => {
    const c = await connect();
    await run(c, 'CREATE SCHEMA analytics.merge_dup');
    await run(c, 'CREATE TABLE analytics.merge_dup.t (id VARCHAR, v VARCHAR)');
    await run(c, `INSERT INTO analytics.merge_dup.t VALUES ('a', 'old')`);
    const merge = (source: string) =>
      run(
        c,
        `MERGE INTO analytics.merge_dup.t AS t USING (${source}) AS s ON t.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id, s.v)`,
      );
    await expect(merge(`SELECT 'a' AS id, 'x' AS v UNION ALL SELECT 'a', 'y'`)).rejects.toMatchObject({
      code: '100090',
    });
    expect(await merge(`SELECT 'a' AS id, 'x' AS v UNION ALL SELECT 'b', 'y'`)).toEqual([
      { 'number of rows inserted': '1', 'number of rows updated': '1' },
    ]);
    await destroy(c);
  });

  it('refuses the stage bind path and counts the attempt; the driver then falls back to inline binds', async () => {
    const c = await connect({ arrayBindingThreshold: 10 });
    await run(c, 'CREATE SCHEMA analytics.stage_path');
    await run(c, 'CREATE TABLE analytics.stage_path.t (id VARCHAR)');
    const before = setup.standIn.stats.stageBindAttempts;
    await run(
      c,
      'INSERT INTO analytics.stage_path.t VALUES (?)',
      Array.from({ length: 11 }, (_, i) => [`r${i}`]),
    );
    expect(setup.standIn.stats.stageBindAttempts).toBe(before + 1);
    expect(await run(c, 'SELECT COUNT(*) AS n FROM analytics.stage_path.t')).toEqual([{ N: '11' }]);
    await destroy(c);
  });

  it('refuses CREATE VIEW to a role without that privilege (003001), as Snowflake does, though it may create tables', async () => {
    const c = await connect({ role: 'AIVIS_TABLES_ONLY_ROLE' });
    await run(c, 'CREATE SCHEMA analytics.no_views');
    await run(c, 'CREATE TABLE analytics.no_views.t (id VARCHAR)');
    const refused = { code: '003001', sqlState: '42501', message: expect.stringContaining('Insufficient privileges') };
    await expect(
      run(c, 'CREATE OR REPLACE VIEW analytics.no_views.v COPY GRANTS AS SELECT id FROM analytics.no_views.t'),
    ).rejects.toMatchObject(refused);
    await expect(
      run(c, 'CREATE VIEW analytics.no_views.v AS SELECT id FROM analytics.no_views.t'),
    ).rejects.toMatchObject(refused);
    const loader = await connect();
    await run(loader, 'CREATE VIEW analytics.no_views.v AS SELECT id FROM analytics.no_views.t');
    await Promise.all([destroy(c), destroy(loader)]);
  });

  it('CREATE TABLE IF NOT EXISTS leaves a table that exists, its rows and changed comments; CREATE OR REPLACE sets them anew', async () => {
    const c = await connect();
    await run(c, 'CREATE SCHEMA analytics.kept_comments');
    const create = (how: string, table: string, id: string) =>
      `${how} analytics.kept_comments.t (id VARCHAR COMMENT '${id}', n NUMBER(38,0)) COMMENT = '${table}'`;
    const comments = async () => ({
      table: await run(
        c,
        `SELECT comment FROM analytics.INFORMATION_SCHEMA.TABLES WHERE table_schema = 'KEPT_COMMENTS' AND table_name = 'T'`,
      ),
      columns: await run(
        c,
        `SELECT column_name, comment FROM analytics.INFORMATION_SCHEMA.COLUMNS WHERE table_schema = 'KEPT_COMMENTS' AND table_name = 'T' ORDER BY ordinal_position`,
      ),
    });
    const set = (table: string, id: string) => ({
      table: [{ COMMENT: table }],
      columns: [
        { COLUMN_NAME: 'ID', COMMENT: id },
        { COLUMN_NAME: 'N', COMMENT: null },
      ],
    });
    await run(c, create('CREATE TABLE IF NOT EXISTS', 'First table.', 'First id.'));
    expect(await comments()).toEqual(set('First table.', 'First id.'));
    await run(c, `COMMENT ON TABLE analytics.kept_comments.t IS 'Changed table.'`);
    await run(c, `COMMENT ON COLUMN analytics.kept_comments.t.id IS 'Changed id.'`);
    await run(c, `INSERT INTO analytics.kept_comments.t VALUES ('a', 1)`);
    await run(c, create('CREATE TABLE IF NOT EXISTS', 'Other table.', 'Other id.'));
    expect(await comments()).toEqual(set('Changed table.', 'Changed id.'));
    expect(await run(c, 'SELECT COUNT(*) AS n FROM analytics.kept_comments.t')).toEqual([{ N: '1' }]);
    await run(c, create('CREATE OR REPLACE TABLE', 'Replaced table.', 'Replaced id.'));
    expect(await comments()).toEqual(set('Replaced table.', 'Replaced id.'));
    expect(await run(c, 'SELECT COUNT(*) AS n FROM analytics.kept_comments.t')).toEqual([{ N: '0' }]);
    await destroy(c);
  });

  it('a failed statement inside a transaction undoes only itself; the transaction stays open until ROLLBACK', async () => {
    const c = await connect();
    await run(c, 'CREATE SCHEMA analytics.tx');
    await run(c, 'CREATE TABLE analytics.tx.t (id VARCHAR, n NUMBER(38,0))');
    await run(c, 'BEGIN');
    await run(c, `INSERT INTO analytics.tx.t VALUES ('kept', 1)`);
    await expect(run(c, `INSERT INTO analytics.tx.t SELECT 'bad', 'abc'::NUMBER(38,0)`)).rejects.toMatchObject({
      code: '100038',
      message: "Numeric value 'abc' is not recognized",
    });
    expect(await run(c, 'SELECT id FROM analytics.tx.t')).toEqual([{ ID: 'kept' }]);
    const other = await connect();
    expect(await run(other, 'SELECT COUNT(*) AS n FROM analytics.tx.t')).toEqual([{ N: '0' }]);
    await run(c, 'ROLLBACK');
    expect(await run(other, 'SELECT COUNT(*) AS n FROM analytics.tx.t')).toEqual([{ N: '0' }]);
    await destroy(other);
    await destroy(c);
  });

  it('ends sessions on destroy and rolls back what they left open', async () => {
    const c = await connect();
    await run(c, 'CREATE SCHEMA analytics.session_end');
    await run(c, 'CREATE TABLE analytics.session_end.t (id VARCHAR)');
    const open = setup.standIn.openSessions();
    await run(c, 'BEGIN');
    await run(c, `INSERT INTO analytics.session_end.t VALUES ('x')`);
    await destroy(c);
    expect(setup.standIn.openSessions()).toBe(open - 1);
    const other = await connect();
    expect(await run(other, 'SELECT COUNT(*) AS n FROM analytics.session_end.t')).toEqual([{ N: '0' }]);
    await destroy(other);
  });
  it('a transaction left open holds its tables: a write waits until SYSTEM$ABORT_TRANSACTION ends it', async () => {
    const killed = await holdTable('detached');
    const session = (await run(killed, 'SELECT CURRENT_SESSION() AS s'))[0]!.S;
    const next = await connect();
    const blocked = watch(run(next, `INSERT INTO analytics.detached.t VALUES ('after')`));
    await waitForWaiters(1);
    const admin = await connect();
    const transactions = await run(admin, 'SHOW TRANSACTIONS');
    expect(transactions).toEqual([
      {
        id: expect.any(String),
        user: LOADER.name,
        session,
        name: expect.any(String),
        started_on: null,
        state: 'running',
        scope: '0',
      },
    ]);
    expect(blocked.state).toBe('pending');
    await run(admin, 'SELECT SYSTEM$ABORT_TRANSACTION(?)', [transactions[0]!.id]);
    expect(await blocked.promise).toEqual([{ 'number of rows inserted': '1' }]);
    expect(setup.standIn.openTransactions()).toBe(0);
    expect(await run(next, 'SELECT id FROM analytics.detached.t')).toEqual([{ ID: 'after' }]);
    for (const c of [admin, next, killed]) await destroy(c);
  });

  it('a blocked write waits for the holder (no time passes) and runs once the holder commits', async () => {
    const holder = await connect();
    await run(holder, 'CREATE SCHEMA analytics.lock_wait');
    await run(holder, 'CREATE TABLE analytics.lock_wait.t (id VARCHAR)');
    await run(holder, 'BEGIN');
    await run(
      holder,
      `MERGE INTO analytics.lock_wait.t AS t USING (SELECT 'first' AS id) AS s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id) VALUES (s.id)`,
    );
    const waiter = await connect();
    const blocked = watch(run(waiter, `UPDATE analytics.lock_wait.t SET id = 'second' WHERE id = 'first'`));
    await waitForWaiters(1);
    expect(blocked.state).toBe('pending');
    await run(holder, 'COMMIT');
    // The update ran after the commit, so it saw (and changed) the committed row.
    expect(await blocked.promise).toEqual([
      { 'number of rows updated': '1', 'number of multi-joined rows updated': '0' },
    ]);
    expect(await run(holder, 'SELECT id FROM analytics.lock_wait.t')).toEqual([{ ID: 'second' }]);
    await destroy(waiter);
    await destroy(holder);
  });

  it('a wait ends with error 000625 after the session’s LOCK_TIMEOUT (0: at once), naming the table and the holder’s transaction', async () => {
    const holder = await holdTable('lock_timeout');
    const transaction = (await run(holder, 'SHOW TRANSACTIONS'))[0]!.id as string;
    const lockError = {
      code: '000625',
      sqlState: '57014',
      message: expect.stringMatching(
        new RegExp(
          `^Statement '[0-9a-f-]{36}' has locked table 'T' in transaction ${transaction} and this lock has not yet been released\\.$`,
        ),
      ),
    };
    const waiter = await connect();
    await run(waiter, 'ALTER SESSION SET LOCK_TIMEOUT = 0');
    await expect(run(waiter, `DELETE FROM analytics.lock_timeout.t`)).rejects.toMatchObject(lockError);
    await run(waiter, 'ALTER SESSION SET LOCK_TIMEOUT = 60');
    const blocked = watch(run(waiter, `DELETE FROM analytics.lock_timeout.t`));
    await waitForWaiters(1);
    await setup.standIn.clock.advance(59_000);
    expect(blocked.state).toBe('pending');
    await setup.standIn.clock.advance(1_000);
    await expect(blocked.promise).rejects.toMatchObject(lockError);
    await run(holder, 'COMMIT');
    expect(await run(waiter, 'SELECT COUNT(*) AS n FROM analytics.lock_timeout.t')).toEqual([{ N: '1' }]);
    await destroy(waiter);
    await destroy(holder);
  });

  it('Snowflake aborts a blocking transaction idle for 5 minutes; the waiting write then runs', async () => {
    const killed = await holdTable('idle_blocker');
    const next = await connect();
    const blocked = watch(run(next, `INSERT INTO analytics.idle_blocker.t VALUES ('after')`));
    await waitForWaiters(1);
    await setup.standIn.clock.advance(5 * 60_000 - 1);
    expect(blocked.state).toBe('pending');
    await setup.standIn.clock.advance(1);
    await blocked.promise;
    expect(setup.standIn.openTransactions()).toBe(0);
    expect(await run(next, 'SELECT id FROM analytics.idle_blocker.t')).toEqual([{ ID: 'after' }]);
    await destroy(next);
    await destroy(killed);
  });

  it('a session idle for 4 hours ends: its transaction is rolled back, its temporary table is gone, and the driver reports the connection terminated', async () => {
    const idle = await connect();
    await run(idle, 'CREATE TEMPORARY TABLE scratch (id VARCHAR)'); // before BEGIN: DDL would commit the transaction
    await holdTable('idle_session', idle);
    const open = setup.standIn.openSessions();
    await setup.standIn.clock.advance(SESSION_IDLE_TIMEOUT_MS - 1);
    expect(setup.standIn.openSessions()).toBe(open);
    await setup.standIn.clock.advance(1);
    expect(setup.standIn.openSessions()).toBe(open - 1);
    expect(setup.standIn.openTransactions()).toBe(0);
    await expect(run(idle, 'SELECT COUNT(*) AS n FROM scratch')).rejects.toMatchObject({
      code: 407002,
      message: 'Unable to perform operation using terminated connection.',
    });
    const other = await connect();
    expect(await run(other, 'SELECT COUNT(*) AS n FROM analytics.idle_session.t')).toEqual([{ N: '0' }]);
    await destroy(other);
  });

  it('an hour-old session token is renewed with the master token: the session and its temporary table live on', async () => {
    const c = await connect();
    await run(c, 'CREATE TEMPORARY TABLE scratch (id VARCHAR)');
    await run(c, `INSERT INTO scratch VALUES ('kept')`);
    const renewals = setup.standIn.stats.tokenRenewals;
    await setup.standIn.clock.advance(3600_000);
    expect(await run(c, 'SELECT id FROM scratch')).toEqual([{ ID: 'kept' }]);
    expect(setup.standIn.stats.tokenRenewals).toBe(renewals + 1);
    await destroy(c);
  });

  it('with clientSessionKeepAlive the driver’s hourly heartbeat keeps an idle session, and its temporary table, past 4 hours', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const c = await connect({ clientSessionKeepAlive: true });
      await run(c, 'CREATE TEMPORARY TABLE scratch (id VARCHAR)');
      await run(c, `INSERT INTO scratch VALUES ('kept')`);
      const heartbeats = setup.standIn.stats.heartbeats;
      for (let hour = 1; hour <= 5; hour++) {
        await setup.standIn.clock.advance(3600_000);
        vi.advanceTimersByTime(3600_000); // the driver's heartbeat interval (CLIENT_SESSION_KEEP_ALIVE_HEARTBEAT_FREQUENCY)
        await until(
          () => setup.standIn.stats.heartbeats === heartbeats + hour,
          `the driver's heartbeat of hour ${hour}`,
          10_000,
        );
      }
      expect(await run(c, 'SELECT id FROM scratch')).toEqual([{ ID: 'kept' }]);
      await destroy(c);
    } finally {
      vi.useRealTimers();
    }
  });
});

/** A session (`holder`, or a new one) whose open transaction has written a row into a new table `analytics.<schema>.t`. */
async function holdTable(schema: string, holder?: Connection): Promise<Connection> {
  holder ??= await connect();
  await run(holder, `CREATE SCHEMA analytics.${schema}`);
  await run(holder, `CREATE TABLE analytics.${schema}.t (id VARCHAR)`);
  await run(holder, 'BEGIN');
  await run(holder, `INSERT INTO analytics.${schema}.t VALUES ('uncommitted')`);
  return holder;
}

/** Until `count` statements wait for a lock in the stand-in. */
function waitForWaiters(count: number): Promise<void> {
  return until(() => setup.standIn.waitingStatements() === count, `${count} statement(s) waiting for a lock`);
}
