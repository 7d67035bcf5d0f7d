/**
 * What the conformance suite does not cover on Snowflake: login (password, key pair),
 * `check` naming the missing grant, the lock lease, batch sizes under the array-binding
 * threshold, and the driver staying unloaded until a Snowflake destination opens.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSnowflakeDestination } from '../../../connectors/snowflake/index.ts';
import { connectSnowflake } from '../../../connectors/snowflake/snowflake-client.ts';
import {
  ARRAY_BINDING_THRESHOLD,
  connectionOptions,
  snowflakeLocation,
} from '../../../connectors/snowflake/snowflake-config.ts';
import { decodeRow } from '../../../connectors/snowflake/snowflake-types.ts';
import { selectAllSql } from '../../../connectors/snowflake/snowflake-sql.ts';
import { SNOWFLAKE_LEASE_MS } from '../../../connectors/snowflake/snowflake-config.ts';
import type { Destination } from '../../../src/destination/destination.ts';
import { viewsOver } from '../../../src/destination/view-spec.ts';
import { ConfigError, DestinationError, LockHeldError, MissingPrivilegesError } from '../../../src/errors.ts';
import { type Logger, silentLogger } from '../../../src/log/logger.ts';
import {
  analyticsCompetitorsTable,
  analyticsLatestTable,
  analyticsProvidersTable,
  ENGINE_TABLES,
  mentionsTable,
  stateTable,
  VIEWS,
  websitesTable,
} from '../../../src/tables/index.ts';
import { flushOf, kindsRow, kindsTable } from '../../conformance/fixtures.ts';
import { keyPairFiles, READER, startStandIn, type StandInSetup } from '../../stand-ins/snowflake/stand-in-fixture.ts';
import { until } from '../../support/until.ts';
import { watch } from '../../support/watch.ts';
import { commitFlush, readStateEntries } from '../../../src/state/state-rows.ts';

let setup: StandInSetup;
const keys = keyPairFiles('pass phrase 1');
const opened: Destination[] = [];

beforeAll(async () => {
  setup = await startStandIn([{ name: 'KEY_LOADER', publicKeyPem: keys.publicKeyPem }]);
});
afterAll(async () => {
  for (const d of opened) await d.close();
  await setup.standIn.close();
});

async function open(
  schema: string,
  overrides: Parameters<StandInSetup['config']>[1] = {},
  now?: () => Date,
  logger: Logger = silentLogger,
): Promise<Destination> {
  const destination = createSnowflakeDestination(setup.config(schema, overrides), {
    logger,
    ...(now ? { now } : {}),
  });
  opened.push(destination);
  await destination.open();
  return destination;
}

const owner = (runId: string) => ({
  runId,
  host: 'etl-1',
  pid: 42,
  startedAt: '2026-03-01T12:00:00.000Z',
  workspace: 'default',
});

describe('Snowflake login', () => {
  it('refuses a wrong password with Snowflake’s message and without the password', async () => {
    const error = await open('login_bad', { password: 'not-the-password' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DestinationError);
    expect((error as Error).message).toBe(
      'Snowflake: login as aivis_loader on account aivis-test failed: Incorrect username or password was specified. (code 390100, SQL state 08004)',
    );
    expect((error as Error).message).not.toContain('not-the-password');
  });

  it('logs in with an encrypted key pair', async () => {
    const destination = await open('login_key', {
      username: 'key_loader',
      password: undefined,
      private_key_file: keys.privateKeyFile,
      private_key_passphrase: 'pass phrase 1',
    });
    await destination.check({ tables: [], views: [] });
  });

  it('names the key file when the passphrase does not open it', () => {
    const config = setup.config('login_key', {
      username: 'key_loader',
      password: undefined,
      private_key_file: keys.privateKeyFile,
      private_key_passphrase: 'wrong phrase',
    });
    expect(() => createSnowflakeDestination(config, { logger: silentLogger })).toThrow(
      new ConfigError(
        `destination.private_key_file: ${keys.privateKeyFile} is not a PEM private key this passphrase opens (is destination.private_key_passphrase right?)`,
      ),
    );
  });
});

describe('Snowflake check', () => {
  it('passes for a role that can create and write tables, and leaves no probe table', async () => {
    const destination = await open('check_ok');
    await destination.check({ tables: [], views: [] });
    await destination.ensureTables([stateTable]);
    expect(await tablesIn('check_ok')).toEqual(['_AIVIS_STATE']);
  });

  it('names the missing CREATE TABLE and CREATE VIEW grants at once, as the statements that fix them', async () => {
    const admin = await open('check_grants');
    await admin.ensureTables([]); // the schema exists; the reader role may use it but not create tables in it
    const reader = await open('check_grants', {
      username: READER.name,
      password: READER.password,
      role: 'AIVIS_READER_ROLE',
    });
    const refused = reader.check({ tables: [], views: [] });
    await expect(refused).rejects.toBeInstanceOf(MissingPrivilegesError);
    await expect(refused).rejects.toMatchObject({
      summary:
        "role AIVIS_READER_ROLE lacks privileges that sync uses in schema analytics.check_grants; as the objects' owner (or a role with MANAGE GRANTS) run these 2 statements",
      fixes: [
        'GRANT CREATE TABLE ON SCHEMA analytics.check_grants TO ROLE AIVIS_READER_ROLE;',
        'GRANT CREATE VIEW ON SCHEMA analytics.check_grants TO ROLE AIVIS_READER_ROLE;',
      ],
    });
  });

  it('names ownership of each table and view of the sync that another role made, with the schema grants', async () => {
    const admin = await open('check_owned');
    await admin.ensureTables([websitesTable, stateTable]);
    await admin.ensureViews(viewsOver(VIEWS, [websitesTable]));
    await admin.acquireLock(owner('check-owned')).then((lock) => lock.release());
    const comments = await commentsIn('check_owned');
    await admin.check({ tables: [stateTable, websitesTable], views: VIEWS }); // their owner lacks nothing
    expect(await commentsIn('check_owned')).toEqual(comments); // and check changed none of them
    const reader = await open('check_owned', {
      username: READER.name,
      password: READER.password,
      role: 'AIVIS_READER_ROLE',
    });
    await expect(reader.check({ tables: [stateTable, websitesTable], views: VIEWS })).rejects.toMatchObject({
      fixes: [
        'GRANT CREATE TABLE ON SCHEMA analytics.check_owned TO ROLE AIVIS_READER_ROLE;',
        'GRANT CREATE VIEW ON SCHEMA analytics.check_owned TO ROLE AIVIS_READER_ROLE;',
        'GRANT OWNERSHIP ON TABLE analytics.check_owned._aivis_state TO ROLE AIVIS_READER_ROLE COPY CURRENT GRANTS;',
        'GRANT OWNERSHIP ON TABLE analytics.check_owned.websites TO ROLE AIVIS_READER_ROLE COPY CURRENT GRANTS;',
        'GRANT OWNERSHIP ON TABLE analytics.check_owned._aivis_lock TO ROLE AIVIS_READER_ROLE COPY CURRENT GRANTS;',
        'GRANT OWNERSHIP ON VIEW analytics.check_owned.websites_current TO ROLE AIVIS_READER_ROLE COPY CURRENT GRANTS;',
      ],
      // What `aivis check` names as tables schema evolution may not add columns to (views are not altered).
      unalterable: ['_aivis_state', 'websites', '_aivis_lock'],
    });
  });

  it('names the missing CREATE VIEW grant: a role that may create tables but not views fails check, not a later sync', async () => {
    const tablesOnly = await open('check_view_grant', { role: 'AIVIS_TABLES_ONLY_ROLE' });
    await expect(tablesOnly.check({ tables: [], views: [] })).rejects.toMatchObject({
      fixes: ['GRANT CREATE VIEW ON SCHEMA analytics.check_view_grant TO ROLE AIVIS_TABLES_ONLY_ROLE;'],
    });
    expect(await tablesIn('check_view_grant')).toEqual([]); // neither probe is left behind
  });

  it('ensureViews names the same CREATE VIEW grant', async () => {
    const tablesOnly = await open('views_grant', { role: 'AIVIS_TABLES_ONLY_ROLE' });
    await tablesOnly.ensureTables([
      websitesTable,
      analyticsLatestTable,
      analyticsProvidersTable,
      analyticsCompetitorsTable,
    ]);
    const error = await tablesOnly.ensureViews(VIEWS).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DestinationError);
    expect((error as Error).message).toMatch(
      /^role AIVIS_TABLES_ONLY_ROLE lacks CREATE VIEW on schema analytics\.views_grant: GRANT CREATE VIEW ON SCHEMA analytics\.views_grant TO ROLE AIVIS_TABLES_ONLY_ROLE \(Snowflake: CREATE OR REPLACE failed: SQL access control error: Insufficient privileges to operate on schema \(code 003001, SQL state 42501, query /,
    );
  });

  it('names a warehouse the role cannot use', async () => {
    const destination = await open('check_wh', { warehouse: 'nope' });
    await expect(destination.check({ tables: [], views: [] })).rejects.toMatchObject({
      fixes: ['GRANT USAGE ON WAREHOUSE nope TO ROLE AIVIS_LOADER_ROLE;'],
    });
    expect(await tablesIn('check_wh')).toEqual([]); // the probe table is dropped even so
  });

  it('names a database that does not exist', async () => {
    const destination = await open('check_db', { database: 'missing_db' });
    await expect(destination.check({ tables: [], views: [] })).rejects.toThrow(
      'database missing_db does not exist or role AIVIS_LOADER_ROLE cannot use it: GRANT USAGE ON DATABASE missing_db TO ROLE AIVIS_LOADER_ROLE',
    );
  });
});

describe('Snowflake tables another role owns', () => {
  // The reader role owns nothing: Snowflake lets only a table's owner alter it or set its comments.
  const asReader = { username: READER.name, password: READER.password, role: 'AIVIS_READER_ROLE' };

  it('a column to add names the ownership it needs, not CREATE TABLE', async () => {
    await (await open('alter_owner')).ensureTables([
      { ...stateTable, columns: stateTable.columns.filter((c) => c.name !== 'updated_at') },
    ]);
    const refused = (await open('alter_owner', asReader)).ensureTables([stateTable]);
    await expect(refused).rejects.toThrow(
      "role AIVIS_READER_ROLE does not own table analytics.alter_owner._aivis_state, and only its owner may alter it or set its comments: as its owner, GRANT OWNERSHIP ON TABLE analytics.alter_owner._aivis_state TO ROLE AIVIS_READER_ROLE COPY CURRENT GRANTS (Snowflake: ALTER TABLE analytics.alter_owner._aivis_state failed: SQL access control error: Insufficient privileges to operate on table '_AIVIS_STATE' (code 003001",
    );
    await expect(refused).rejects.toMatchObject({ exitCode: 1 });
  });

  it('a description it may not set is a warning naming the ownership it needs, and the tables are ready', async () => {
    await (await open('comment_owner')).ensureTables([{ ...stateTable, description: 'An older description.' }]);
    const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
    const reader = await open('comment_owner', asReader, undefined, {
      ...silentLogger,
      warn: (msg, fields) => warnings.push({ msg, fields }),
    });
    await reader.ensureTables([stateTable]);
    expect(warnings).toEqual([
      {
        msg: 'description not set',
        fields: {
          error: expect.stringMatching(
            /^role AIVIS_READER_ROLE does not own table analytics\.comment_owner\._aivis_state, and only its owner may alter it or set its comments: as its owner, GRANT OWNERSHIP ON TABLE analytics\.comment_owner\._aivis_state TO ROLE AIVIS_READER_ROLE COPY CURRENT GRANTS \(Snowflake: COMMENT ON TABLE failed: SQL access control error: Insufficient privileges to operate on table '_AIVIS_STATE' \(code 003001,/,
          ),
        },
      },
    ]);
  });
});

describe('Snowflake lock lease', () => {
  it('a crashed holder keeps the lock until its lease expires, then loses it', async () => {
    let clock = Date.parse('2026-03-01T12:00:00Z');
    const now = () => new Date(clock);
    const crashed = await open('lease', {}, now);
    await crashed.acquireLock(owner('run-crashed')); // never released: the process "died"
    const next = await open('lease', {}, now);
    clock += SNOWFLAKE_LEASE_MS - 1000;
    const refusal = next.acquireLock(owner('run-next'));
    await expect(refusal).rejects.toBeInstanceOf(LockHeldError);
    await expect(refusal).rejects.toThrow(
      'another aivis run holds the lock on schema "lease": run run-crashed on etl-1 pid 42 since 2026-03-01T12:00:00.000Z; its lease expires at 2026-03-01T12:30:00.000000Z unless that run renews it',
    );
    clock += 2000;
    const lock = await next.acquireLock(owner('run-next'));
    await lock.release();
  });

  it('a holder that outlived its lease (a paused process) finds the lock taken and writes nothing', async () => {
    let clock = Date.parse('2026-03-01T12:00:00Z');
    const now = () => new Date(clock);
    const paused = await open('lease_paused', {}, now);
    await paused.ensureTables([stateTable]);
    await paused.acquireLock(owner('run-paused'));
    clock += SNOWFLAKE_LEASE_MS + 1000;
    const next = await open('lease_paused', {}, now);
    const lock = await next.acquireLock(owner('run-next'));
    await expect(
      commitFlush(paused, {
        tables: [],
        state: [
          {
            stream: 'mentions',
            scope: 'web_1',
            state: { frontier: 'late', cursor: null, pending_upper_bound: null },
            updatedAt: '2026-03-01T12:11:00Z',
          },
        ],
      }),
    ).rejects.toThrow(
      'this run lost the lock on schema "lease_paused" to another run after its lease expired (was the process paused?); stopping before writing more',
    );
    expect(await readStateEntries(next)).toEqual([]);
    await lock.release();
  });
});

describe('Snowflake loading', () => {
  it('loads a large flush in bound batches under the array-binding threshold, never through a stage', async () => {
    const destination = await open('batches');
    await destination.ensureTables([...ENGINE_TABLES, mentionsTable]);
    const rows = Array.from({ length: 9_000 }, (_, i) => ({
      id: `men_${String(i).padStart(6, '0')}`,
      website_id: `web_${i % 7}`,
      analysis_id: `ana_${i % 13}`,
      observed_at: '2026-03-01T00:00:00.000001Z',
      available_at: '2026-03-01T00:00:01Z',
      provider: 'chatgpt',
      sentence_text: `sentence ${i} with 'quotes' and "doubles"`,
      sentence_text_truncated: i % 2 === 0,
      position_in_response: i,
      sentiment: (i % 5) / 4,
      mention_spans: '[{"start":0,"end":4}]',
      _synced_at: '2026-03-01T01:00:00Z',
      _run_id: 'run-batches',
      _raw: JSON.stringify({ id: `men_${i}` }),
    }));
    const before = { ...setup.standIn.stats };
    const result = await commitFlush(destination, {
      tables: [{ table: mentionsTable, rows: [...rows, rows[0]!] }],
      state: [],
    });
    expect(result.rowsWritten).toEqual({ mentions: 9_000 });
    expect(setup.standIn.stats.stageBindAttempts).toBe(before.stageBindAttempts);
    expect(setup.standIn.stats.maxBindValues).toBeLessThanOrEqual(ARRAY_BINDING_THRESHOLD);
    expect(Math.floor(ARRAY_BINDING_THRESHOLD / mentionsTable.columns.length) * mentionsTable.columns.length).toBe(
      setup.standIn.stats.maxBindValues,
    );
  });

  it('leaves current views alone: a second ensureViews is two catalog reads, not a replace and every comment again', async () => {
    const destination = await open('views_current');
    const tables = [websitesTable, analyticsLatestTable, analyticsProvidersTable, analyticsCompetitorsTable];
    await destination.ensureTables(tables);
    // The views over these tables (the evidence and history views need tables not made here).
    const views = viewsOver(VIEWS, tables);
    await destination.ensureViews(views);
    const before = setup.standIn.stats.statements;
    await destination.ensureViews(views);
    expect(setup.standIn.stats.statements - before).toBe(2);
  });

  it('keeps JSON integers up to 38 digits and plain decimals exact; a number in exponent form comes back a 16-digit DOUBLE', async () => {
    const destination = await open('json_numbers');
    await destination.ensureTables([kindsTable]);
    await commitFlush(
      destination,
      flushOf(kindsTable, [
        kindsRow('r1', {
          j: '{"tiny":1.2345678901234567e-7,"plain":0.30000000000000004,"exact":123456789012345678901234567890}',
        }),
      ]),
    );
    const client = await connectSnowflake(connectionOptions(setup.config('json_numbers')), 'aivis-test');
    const [row] = await client.execute(selectAllSql(snowflakeLocation(setup.config('json_numbers')), kindsTable));
    await client.close();
    expect(decodeRow(kindsTable, row!).j).toBe(
      '{\n  "exact": 123456789012345678901234567890,\n  "plain": 0.30000000000000004,\n  "tiny": 1.234567890123457e-07\n}',
    );
  });

  it('creates tables users query without quotes, with Snowflake types and their descriptions in the one statement', async () => {
    const destination = await open('types_ddl');
    const ddl = destination.describeDdl([analyticsLatestTable]);
    expect(ddl).toHaveLength(2); // CREATE SCHEMA, CREATE TABLE: no comment statement per column
    expect(ddl[1]).toMatch(
      /^CREATE TABLE IF NOT EXISTS analytics\.types_ddl\.analytics_latest \(website_id VARCHAR NOT NULL COMMENT 'The website \(`websites\.id`\)\.', analysis_id VARCHAR COMMENT '[^']*', as_of TIMESTAMP_TZ COMMENT .*, visibility FLOAT COMMENT .* unavailable_reasons VARIANT NOT NULL COMMENT .* is_partial BOOLEAN NOT NULL COMMENT .* _synced_at TIMESTAMP_TZ NOT NULL COMMENT .* _run_id VARCHAR NOT NULL COMMENT .* _raw VARIANT NOT NULL COMMENT .* _workspace VARCHAR COMMENT .*, PRIMARY KEY \(website_id\)\) COMMENT = 'The latest published analytics snapshot of each website .*'$/,
    );
  });
});

describe('Snowflake table locks', () => {
  const state = (frontier: string) => ({
    tables: [],
    state: [
      {
        stream: 'mentions',
        scope: 'web_1',
        state: { frontier, cursor: null, pending_upper_bound: null },
        updatedAt: '2026-03-01T12:00:00Z',
      },
    ],
  });

  /**
   * A flush of state into `schema`, waiting in Snowflake because another session's open
   * transaction (as a killed run's would be) holds `_aivis_state`.
   */
  async function blockedFlush(schema: string, frontier: string) {
    const destination = await open(schema);
    await destination.ensureTables([stateTable]);
    const holder = await connectSnowflake(connectionOptions(setup.config(schema)), 'aivis-test');
    await holder.execute('BEGIN');
    await holder.execute(`DELETE FROM analytics.${schema}._aivis_state WHERE stream = 'none'`);
    const flush = watch(commitFlush(destination, state(frontier)));
    await until(() => setup.standIn.waitingStatements() === 1, 'the flush waiting for the lock');
    return { destination, holder, flush };
  }

  it('a flush waits for a transaction left open on its table; Snowflake aborts that one after 5 idle minutes, within aivis’s lock wait', async () => {
    const { destination, holder: detached, flush } = await blockedFlush('lock_idle', 'after the wait');
    await setup.standIn.clock.advance(5 * 60_000);
    await flush.promise;
    expect((await readStateEntries(destination)).map((e) => e.state.frontier)).toEqual(['after the wait']);
    await detached.close();
  });

  it('a flush blocked longer than 10 minutes fails, saying what holds it and how to end it, and writes nothing', async () => {
    const { destination, holder, flush } = await blockedFlush('lock_bound', 'never');
    // A busy holder (not idle for 5 minutes, so Snowflake does not abort it).
    for (const minutes of [4, 4]) {
      await setup.standIn.clock.advance(minutes * 60_000);
      await holder.execute('SELECT 1');
    }
    await setup.standIn.clock.advance(2 * 60_000 - 1);
    expect(setup.standIn.waitingStatements()).toBe(1);
    await setup.standIn.clock.advance(1);
    await until(() => flush.state === 'rejected', 'the flush to give up waiting', 10_000);
    await expect(flush.promise).rejects.toThrow(
      new RegExp(
        `^Snowflake: MERGE INTO analytics\\.lock_bound\\._aivis_state failed: Statement '[0-9a-f-]+' has locked table '_AIVIS_STATE' in transaction \\d+ and this lock has not yet been released\\. \\(code 000625, SQL state 57014, query [0-9a-f-]+\\); ` +
          `another transaction held this table longer than aivis waits for a lock \\(LOCK_TIMEOUT = 600 s\\): find it with SHOW TRANSACTIONS and end it with SELECT SYSTEM\\$ABORT_TRANSACTION\\(<id>\\), or let it finish, then run aivis again$`,
      ),
    );
    await holder.execute('ROLLBACK');
    await holder.close();
    expect(await readStateEntries(destination)).toEqual([]);
  });
});

describe('Snowflake sessions', () => {
  const state = (frontier: string) => ({
    stream: 'mentions',
    scope: frontier,
    state: { frontier, cursor: null, pending_upper_bound: null },
    updatedAt: '2026-03-01T12:00:00Z',
  });
  const HOUR = 3600_000;

  it('the data session survives 5 idle hours between flushes (the driver’s keep-alive heartbeat), staging tables and all', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const destination = await open('keep_alive');
      await destination.ensureTables([stateTable]);
      await commitFlush(destination, { tables: [], state: [state('before')] });
      const { heartbeats, logins } = setup.standIn.stats;
      for (let hour = 1; hour <= 5; hour++) {
        await setup.standIn.clock.advance(HOUR);
        vi.advanceTimersByTime(HOUR);
        await until(
          () => setup.standIn.stats.heartbeats === heartbeats + hour,
          `the driver's heartbeat of hour ${hour}`,
          10_000,
        );
      }
      await commitFlush(destination, { tables: [], state: [state('after')] });
      expect((await readStateEntries(destination)).map((e) => e.scope).sort()).toEqual(['after', 'before']);
      expect(setup.standIn.stats.logins).toBe(logins);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a data session Snowflake ended anyway fails the next flush with a message that says so, committing nothing', async () => {
    const destination = await open('session_lost');
    await destination.ensureTables([stateTable]);
    await commitFlush(destination, { tables: [], state: [state('before')] });
    await setup.standIn.clock.advance(4 * HOUR); // no request reached Snowflake (the heartbeat never fired here)
    await expect(commitFlush(destination, { tables: [], state: [state('after')] })).rejects.toThrow(
      'Snowflake: CREATE OR REPLACE failed: Unable to perform operation using terminated connection. (code 407002, SQL state 08003); the Snowflake session has ended (Snowflake ends one after 4 hours without a request, which the keep-alive heartbeat prevents unless Snowflake was out of reach that long, or an administrator ended it); run aivis again: it resumes from the last committed flush',
    );
    const next = await open('session_lost');
    expect((await readStateEntries(next)).map((e) => e.scope)).toEqual(['before']);
  });
});

describe('driver loading', () => {
  it('is loaded by open(), not before, with its probes off unless the user set them', async () => {
    const script = `
      import { registerHooks } from 'node:module';
      const loaded = [];
      registerHooks({ resolve(specifier, context, next) { if (specifier === 'snowflake-sdk') loaded.push(specifier); return next(specifier, context); } });
      const { createSnowflakeDestination } = await import('./connectors/snowflake/index.ts');
      const d = createSnowflakeDestination(${JSON.stringify(setup.config('lazy'))}, { logger: { debug() {}, info() {}, warn() {}, error() {} } });
      const before = { loaded: loaded.length, detection: process.env.SNOWFLAKE_DISABLE_PLATFORM_DETECTION ?? null };
      await d.open();
      await d.close();
      console.log(JSON.stringify({ before, after: { loaded: loaded.length, detection: process.env.SNOWFLAKE_DISABLE_PLATFORM_DETECTION, shape: process.env.SF_TELEMETRY_DISABLE_CONNECTION_SHAPE } }));
    `;
    const { SNOWFLAKE_DISABLE_PLATFORM_DETECTION: _unset, ...inherited } = process.env;
    const env = { ...inherited, SF_TELEMETRY_DISABLE_CONNECTION_SHAPE: 'user-choice' };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', './test/setup/loopback-guard.ts', '--input-type=module', '-e', script],
      { env },
    );
    expect(JSON.parse(stdout)).toEqual({
      before: { loaded: 0, detection: null },
      after: { loaded: 1, detection: 'true', shape: 'user-choice' },
    });
  });
});

async function tablesIn(schema: string): Promise<string[]> {
  return (await commentsIn(schema)).map(([name]) => name);
}

/** Each table and view of the schema with its comment. */
async function commentsIn(schema: string): Promise<[string, unknown][]> {
  const client = await connectSnowflake(connectionOptions(setup.config(schema)), 'aivis-test');
  const rows = await client.execute(
    `SELECT TABLE_NAME, COMMENT FROM analytics.INFORMATION_SCHEMA.TABLES WHERE TABLE_CATALOG = 'ANALYTICS' AND TABLE_SCHEMA = ?`,
    [schema.toUpperCase()],
  );
  await client.close();
  return rows.map((r) => [String(r.TABLE_NAME), r.COMMENT]);
}
