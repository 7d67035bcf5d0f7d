/** What the conformance suite cannot say about Postgres: check() messages, connection errors, secrets, the lock across processes, COPY chunks. */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import pg from 'pg';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { createPostgresDestination } from '../../../connectors/postgres/index.ts';
import type { Destination } from '../../../src/destination/destination.ts';
import { ConfigError, DestinationError, LockHeldError, MissingPrivilegesError } from '../../../src/errors.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { redact } from '../../../src/log/redact.ts';
import { VIEW_MARKER, viewsOver } from '../../../src/destination/view-spec.ts';
import {
  analyticsCompetitorsTable,
  analyticsLatestTable,
  analyticsProvidersTable,
  mentionsTable,
  stateTable,
  VIEWS,
  websitesCurrentView,
  websitesTable,
} from '../../../src/tables/index.ts';
import { kindsRow, kindsTable } from '../../conformance/fixtures.ts';
import { spawnLockHolder } from '../../locks/spawn-lock-holder.ts';
import { commitFlush } from '../../../src/state/state-rows.ts';
import { evolveTables } from '../../../src/evolution/evolve-tables.ts';

const url = inject('postgresUrl');
const admin = new pg.Pool({ connectionString: url, max: 2 });
const opened: Destination[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
  await admin.end();
});

/** A check of the schema alone: no table of a sync exists yet. */
const NO_TABLES = { tables: [], views: [] };
const unique = (prefix: string) => `${prefix}_${randomBytes(5).toString('hex')}`;
const withUser = (user: string, password: string) => {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  return u.toString();
};
async function openDestination(schema: string, target = url): Promise<Destination> {
  const d = createPostgresDestination({ type: 'postgres', url: target, schema }, { logger: silentLogger });
  opened.push(d);
  await d.open();
  return d;
}
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
/** A login role with only the privileges given, and a password that must never be shown. */
async function restrictedRole(grants: (role: string) => string[]): Promise<{ role: string; password: string }> {
  const role = unique('aivis_role');
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  for (const sql of grants(role)) await admin.query(sql);
  return { role, password };
}

describe('postgres destination: check()', () => {
  it('creates the schema and leaves no probe table behind', async () => {
    const schema = unique('check_ok');
    const d = await openDestination(schema);
    await d.check(NO_TABLES);
    const { rows } = await admin.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [
      schema,
    ]);
    expect(rows).toEqual([]);
    const { rowCount } = await admin.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    expect(rowCount).toBe(1);
  });

  it('names the missing CREATE privilege on the schema as the GRANT to run, and never the password', async () => {
    const schema = unique('check_ro');
    await admin.query(`CREATE SCHEMA ${schema}`);
    const { role, password } = await restrictedRole((r) => [`GRANT USAGE ON SCHEMA ${schema} TO ${r}`]);
    const d = await openDestination(schema, withUser(role, password));
    const error = await d.check(NO_TABLES).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPrivilegesError);
    expect(error).toMatchObject({
      summary: `Postgres user "${role}" lacks privileges that sync uses in database postgres, schema ${schema}; as each object's owner or a superuser, run this statement`,
      fixes: [`GRANT CREATE ON SCHEMA ${schema} TO ${role};`],
      exitCode: 1,
    });
    expect((error as Error).message).not.toContain(password);
  });

  it('names the missing CREATE privilege on the database when the schema does not exist', async () => {
    const schema = unique('check_nodb');
    const { role, password } = await restrictedRole(() => []);
    const d = await openDestination(schema, withUser(role, password));
    await expect(d.check(NO_TABLES)).rejects.toMatchObject({
      fixes: [`GRANT CREATE ON DATABASE postgres TO ${role};`],
    });
  });

  it('lists the privileges missing on tables that exist, one statement per table, the owner last', async () => {
    const schema = unique('check_tables');
    await (await openDestination(schema)).ensureTables([websitesTable, stateTable]);
    const { role, password } = await restrictedRole((r) => [
      `GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${r}`,
      `GRANT SELECT, UPDATE ON ${schema}._aivis_state TO ${r}`,
    ]);
    const d = await openDestination(schema, withUser(role, password));
    await expect(d.check({ tables: [websitesTable, stateTable, kindsTable], views: [] })).rejects.toMatchObject({
      fixes: [
        `GRANT INSERT, DELETE ON TABLE ${schema}._aivis_state TO ${role};`,
        `ALTER TABLE ${schema}._aivis_state OWNER TO ${role};`,
        `GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE ${schema}.websites TO ${role};`,
        `ALTER TABLE ${schema}.websites OWNER TO ${role};`,
      ],
      unalterable: ['_aivis_state', 'websites'],
    });
  });
});

describe('postgres destination: tables another role owns', () => {
  /** `websites` made by the admin role; the loader role may use the schema and write rows, but owns nothing. */
  async function ownedByAnother(): Promise<{ schema: string; role: string; loaderUrl: string }> {
    const schema = unique('owned');
    await (await openDestination(schema)).ensureTables([websitesTable]);
    const { role, password } = await restrictedRole((r) => [
      `GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${r}`,
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${r}`,
    ]);
    return { schema, role, loaderUrl: withUser(role, password) };
  }

  it('a column to add names the owner as the fix, not a schema grant the user has', async () => {
    const { schema, role, loaderUrl } = await ownedByAnother();
    await admin.query(`ALTER TABLE ${schema}.websites DROP COLUMN industry_niche`);
    const refused = (await openDestination(schema, loaderUrl)).ensureTables([websitesTable]);
    await expect(refused).rejects.toThrow(
      new DestinationError(
        `permission denied: Postgres user "${role}" does not own table ${schema}.websites in database postgres, and only its owner may change it; as the owner run: ALTER TABLE ${schema}.websites OWNER TO ${role}; or grant the owning role to ${role}`,
      ),
    );
    await expect(refused).rejects.toMatchObject({ exitCode: 1 });
  });

  it('a description it may not set is a warning naming the owner, and the sync goes on', async () => {
    const { schema, role, loaderUrl } = await ownedByAnother();
    await admin.query(`COMMENT ON TABLE ${schema}.websites IS NULL`);
    const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
    const d = createPostgresDestination(
      { type: 'postgres', url: loaderUrl, schema },
      { logger: { ...silentLogger, warn: (msg, fields) => warnings.push({ msg, fields }) } },
    );
    opened.push(d);
    await d.open();
    await d.ensureTables([websitesTable]);
    expect(warnings).toEqual([
      {
        msg: 'description not set',
        fields: {
          error: `permission denied: Postgres user "${role}" does not own table ${schema}.websites in database postgres, and only its owner may change it; as the owner run: ALTER TABLE ${schema}.websites OWNER TO ${role}; or grant the owning role to ${role}`,
        },
      },
    ]);
    // The failed COMMENT did not spoil the transaction: the rows of a flush still load.
    const row = {
      id: 'web_1',
      domain_url: 'https://example.com',
      country: 'US',
      language: null,
      industry_niche: null,
      last_analysis_at: null,
      _first_seen_at: '2026-03-01T00:00:00Z',
      _removed_at: null,
      _synced_at: '2026-03-01T00:00:00Z',
      _run_id: 'run_1',
      _raw: '{}',
    };
    await commitFlush(d, { tables: [{ table: websitesTable, rows: [row] }], state: [] });
    const { rows } = await admin.query(`SELECT id FROM ${schema}.websites`);
    expect(rows).toEqual([{ id: 'web_1' }]);
  });

  it('schema evolution on a table it may not alter is a warning naming the owner, and the table keeps its columns', async () => {
    const { schema, role, loaderUrl } = await ownedByAnother();
    const warnings: { msg: string; fields?: Record<string, unknown> }[] = [];
    const logger = {
      ...silentLogger,
      warn: (msg: string, fields?: Record<string, unknown>) => warnings.push({ msg, fields }),
    };
    const d = createPostgresDestination({ type: 'postgres', url: loaderUrl, schema }, { logger: silentLogger });
    opened.push(d);
    await d.open();
    const tags = { name: 'tags', schema: { type: 'array' }, required: false, nullable: true };
    const evolution = await evolveTables({
      destination: d,
      tables: [websitesTable],
      mode: 'evolve',
      maxColumns: 200,
      declared: (stream, within) => (stream === 'websites' && within.length === 0 ? [tags] : []),
      logger,
    });
    expect(warnings).toEqual([
      {
        msg: 'schema evolution: the table keeps its columns, its new fields stay in _raw',
        fields: {
          table: 'websites',
          columns: ['tags'],
          error: `permission denied: Postgres user "${role}" does not own table ${schema}.websites in database postgres, and only its owner may change it; as the owner run: ALTER TABLE ${schema}.websites OWNER TO ${role}; or grant the owning role to ${role}`,
        },
      },
    ]);
    expect(evolution.added).toEqual({});
    expect(evolution.table(websitesTable).columns.map((c) => c.name)).toEqual(websitesTable.columns.map((c) => c.name));
    const { rows } = await admin.query(
      'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = $3',
      [schema, 'websites', 'tags'],
    );
    expect(rows).toEqual([]);
  });
});

describe('postgres destination: connecting', () => {
  it('says it cannot reach a server that is not there', async () => {
    const port = await closedPort();
    const d = createPostgresDestination(
      { type: 'postgres', url: `postgres://aivis:s3cret-pass@127.0.0.1:${port}/db`, schema: 'aivis' },
      { logger: silentLogger },
    );
    await expect(d.open()).rejects.toThrow(
      new DestinationError(`cannot reach Postgres at 127.0.0.1:${port}: connection refused`),
    );
  });

  it('says the password was refused without echoing it, and registers it for redaction', async () => {
    const { role } = await restrictedRole(() => []);
    const wrong = `wrong-${randomBytes(6).toString('hex')}`;
    const d = createPostgresDestination(
      { type: 'postgres', url: withUser(role, wrong), schema: 'aivis' },
      { logger: silentLogger },
    );
    const error = await d.open().catch((e: unknown) => e);
    const { hostname, port } = new URL(url);
    expect((error as Error).message).toBe(`Postgres at ${hostname}:${port} refused the password of user "${role}"`);
    expect(redact(`url was ${withUser(role, wrong)}`)).not.toContain(wrong);
  });

  it('names a database that does not exist', async () => {
    const target = new URL(url);
    target.pathname = '/no_such_database';
    const d = createPostgresDestination(
      { type: 'postgres', url: target.toString(), schema: 'aivis' },
      { logger: silentLogger },
    );
    await expect(d.open()).rejects.toThrow(`database "no_such_database" does not exist on Postgres at ${target.host}`);
  });
});

describe('postgres destination: loading', () => {
  it('streams a flush larger than one COPY chunk and counts every row', async () => {
    const schema = unique('copy');
    const d = await openDestination(schema);
    await d.ensureTables([mentionsTable]);
    const rows = Array.from({ length: 1234 }, (_, n) => ({
      id: `men_${String(n).padStart(5, '0')}`,
      website_id: 'web_1',
      analysis_id: 'ana_1',
      observed_at: '2026-03-01T00:00:00.000001Z',
      available_at: '2026-03-01T00:00:01Z',
      provider: 'chatgpt',
      sentence_text: `sentence ${n}, with "quotes"\nand a newline`,
      sentence_text_truncated: n % 2 === 0,
      position_in_response: n,
      sentiment: n / 7,
      mention_spans: '[]',
      _synced_at: '2026-03-01T00:00:02Z',
      _run_id: 'run_1',
      _raw: JSON.stringify({ n }),
    }));
    const result = await commitFlush(d, { tables: [{ table: mentionsTable, rows }], state: [] });
    expect(result.rowsWritten).toEqual({ mentions: 1234 });
    const { rows: counted } = await admin.query(
      `SELECT count(*)::int AS n, sum(position_in_response)::int AS s FROM "${schema}".mentions`,
    );
    expect(counted).toEqual([{ n: 1234, s: (1233 * 1234) / 2 }]);
  });

  it('a refused value fails the flush with a message naming the table and the value', async () => {
    const schema = unique('bad');
    const d = await openDestination(schema);
    await d.ensureTables([kindsTable]);
    await expect(
      commitFlush(d, { tables: [{ table: kindsTable, rows: [kindsRow('r001', { t: 'yesterday-ish' })] }], state: [] }),
    ).rejects.toThrow(
      `Postgres refused a flush into "${schema}"."conformance_kinds": invalid input syntax for type timestamp with time zone: "yesterday-ish"`,
    );
  });

  it('unpaired UTF-16 surrogates, which JSONB refuses, are stored as U+FFFD instead of failing the flush', async () => {
    const schema = unique('surrogate');
    const d = await openDestination(schema);
    await d.ensureTables([kindsTable]);
    const j = JSON.stringify({ lone: '\ud800 high', low: 'low \udc00', pair: '😀' });
    expect(j).toContain('\\ud800');
    await commitFlush(d, {
      tables: [{ table: kindsTable, rows: [kindsRow('r001', { s: 'text \ud800', j })] }],
      state: [],
    });
    const { rows } = await admin.query(`SELECT s, j::text AS j FROM "${schema}".conformance_kinds`);
    expect(rows.map((r: { s: string; j: string }) => ({ s: r.s, j: JSON.parse(r.j) as unknown }))).toEqual([
      { s: 'text \ufffd', j: { lone: '\ufffd high', low: 'low \ufffd', pair: '😀' } },
    ]);
  });

  it('describeDdl is what ensureTables runs', async () => {
    const schema = unique('ddl');
    const d = await openDestination(schema);
    for (const statement of d.describeDdl([mentionsTable])) await admin.query(statement);
    // Running ensureTables after the DDL must find nothing to create or add.
    await d.ensureTables([mentionsTable]);
    const { rows } = await admin.query(
      'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 ORDER BY ordinal_position',
      [schema],
    );
    expect(rows.map((r: { column_name: string }) => r.column_name)).toEqual(mentionsTable.columns.map((c) => c.name));
  });
});

describe('postgres destination: views', () => {
  const tables = [websitesTable, analyticsLatestTable, analyticsProvidersTable, analyticsCompetitorsTable];
  // The views over these tables (the evidence and history views need tables not made here).
  const views = viewsOver(VIEWS, tables);

  it("refuses (exit 2) a user's own view of a view's name, and leaves it alone", async () => {
    const schema = unique('myview');
    const d = await openDestination(schema);
    await d.ensureTables(tables);
    await admin.query(`CREATE VIEW "${schema}".websites_current AS SELECT 1 AS mine`);
    const refused = d.ensureViews(views);
    await expect(refused).rejects.toThrow(
      `"${schema}"."websites_current" is a view aivis did not create (its comment lacks aivis's description), so sync will not replace it with aivis's view websites_current: rename or drop your view, then run sync again`,
    );
    await expect(refused).rejects.toMatchObject({ exitCode: 2 });
    const { rows } = await admin.query(`SELECT mine FROM "${schema}".websites_current`);
    expect(rows).toEqual([{ mine: 1 }]);
  });

  it('replaces its own view whose columns changed (an older aivis), keeping nothing of the old one', async () => {
    const schema = unique('oldview');
    const d = await openDestination(schema);
    await d.ensureTables(tables);
    await admin.query(`CREATE VIEW "${schema}".websites_current AS SELECT 'x' AS old_column`);
    await admin.query(`COMMENT ON VIEW "${schema}".websites_current IS 'Old. ${VIEW_MARKER}'`);
    await d.ensureViews(views);
    await d.ensureViews(views);
    const { rows } = await admin.query(
      'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position',
      [schema, websitesCurrentView.name],
    );
    expect(rows.map((r: { column_name: string }) => r.column_name)).toEqual(
      websitesCurrentView.columns.map((c) => c.name),
    );
    const { rows: comment } = await admin.query('SELECT obj_description($1::regclass) AS comment', [
      `"${schema}".websites_current`,
    ]);
    expect(comment[0].comment.startsWith(`${websitesCurrentView.description} (definition `)).toBe(true);
  });
});

describe('postgres destination: run lock across processes', () => {
  it('refuses while another process holds it, naming it, and frees it when that process is killed', async () => {
    const schema = unique('lock');
    const holder = await spawnLockHolder('postgres', url, schema);
    try {
      const d = await openDestination(schema);
      const owner = {
        runId: 'run-here',
        host: os.hostname(),
        pid: process.pid,
        startedAt: '2026-03-01T01:00:00.000Z',
        workspace: 'default',
      };
      const refusal = d.acquireLock(owner);
      await expect(refusal).rejects.toBeInstanceOf(LockHeldError);
      await expect(refusal).rejects.toThrow(
        `another aivis run holds the lock on schema "${schema}": run held-by-child on ${os.hostname()} pid ${holder.pid} since 2026-03-01T00:00:00.000Z`,
      );
      await holder.kill();
      // The server frees a session's advisory locks once it sees the connection gone.
      const lock = await vi.waitFor(() => d.acquireLock(owner), { timeout: 10_000, interval: 50 });
      const { rows } = await admin.query(`SELECT run_id, pid FROM "${schema}"._aivis_lock`);
      expect(rows).toEqual([{ run_id: 'run-here', pid: String(process.pid) }]);
      await lock.release();
      expect((await admin.query(`SELECT * FROM "${schema}"._aivis_lock`)).rowCount).toBe(0);
    } finally {
      await holder.kill();
    }
  });
});

describe('postgres destination: config', () => {
  const create = (target: string) =>
    createPostgresDestination({ type: 'postgres', url: target, schema: 'aivis' }, { logger: silentLogger });

  it('refuses a URL that is not postgres:// without echoing it', () => {
    expect(() => create('mysql://u:hunter2-secret@db:3306/x')).toThrow(
      new ConfigError('destination.url must start with postgres:// (got mysql://)'),
    );
    expect(() => create('not a url with hunter2-secret')).toThrow(
      new ConfigError('destination.url is not a URL: write it as postgres://user:<password>@host:5432/database'),
    );
  });

  it('registers the password, raw and percent-decoded, for redaction', () => {
    create('postgres://user:p%40ss-w0rd-%25x@127.0.0.1:5432/db');
    expect(redact('a p%40ss-w0rd-%25x b p@ss-w0rd-%x c')).toBe('a [REDACTED] b [REDACTED] c');
  });
});
