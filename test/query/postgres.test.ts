/**
 * `aivis query` on Postgres: the real server; a pg-cursor portal (one statement only) inside a
 * `READ ONLY` transaction refuses what the leading keyword lets through (a data-modifying CTE,
 * `SELECT INTO`, a function that writes), before any row changes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { describeQuery, writeQueryConfig } from './query-suite.ts';

const url = new URL(inject('postgresUrl'));
const database = `aivis_query_${process.pid}`;
let dir: string;
let admin: pg.Client;
let client: pg.Client;

describeQuery('Postgres', {
  table: 'aivis_q.query_fixture',
  column: (name) => name,
  async setup() {
    dir = await mkdtemp(path.join(os.tmpdir(), 'aivis-query-pg-'));
    admin = new pg.Client({ connectionString: url.href });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.query(`CREATE DATABASE ${database}`);
    const target = new URL(url.href);
    target.pathname = `/${database}`;
    client = new pg.Client({ connectionString: target.href });
    await client.connect();
    await client.query('CREATE SCHEMA aivis_q');
    await client.query(
      'CREATE TABLE aivis_q.query_fixture (id bigint, big bigint, name text, payload jsonb, ok boolean)',
    );
    await client.query(
      `INSERT INTO aivis_q.query_fixture VALUES (1, 9007199254740993, 'comma, "quote"', '{"k":[1,2]}', true), (2, 9007199254740991, NULL, NULL, false)`,
    );
    // A function that writes: a SELECT calling it passes every check but the READ ONLY transaction.
    await client.query(
      `CREATE FUNCTION aivis_q.forget() RETURNS bigint LANGUAGE sql AS 'DELETE FROM aivis_q.query_fixture RETURNING id'`,
    );
    target.password = '';
    const config = await writeQueryConfig(path.join(dir, 'aivis.yaml'), [
      '  type: postgres',
      `  url: ${target.href.replace(/^postgres:\/\/postgres:?@/, 'postgres://postgres:${AIVIS_TEST_PG_PASSWORD}@')}`,
      '  schema: aivis_q',
    ]);
    return { config, env: { AIVIS_TEST_PG_PASSWORD: decodeURIComponent(url.password) } };
  },
  async teardown() {
    await client?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.end();
    await rm(dir, { recursive: true, force: true });
  },
  rowCount: async () => Number((await client.query('SELECT count(*) AS n FROM aivis_q.query_fixture')).rows[0].n),
  tableExists: async (name) =>
    (await client.query('SELECT to_regclass($1) IS NOT NULL AS present', [`aivis_q.${name}`])).rows[0].present,
  arrays: "SELECT ARRAY['a', 'b c']::text[] AS tags, ARRAY[1, 2]::bigint[] AS ns",
  engineRefusals: [
    {
      sql: 'WITH gone AS (DELETE FROM aivis_q.query_fixture RETURNING id) SELECT count(*) FROM gone',
      kind: 'data-modifying WITH',
    },
    { sql: 'SELECT * INTO aivis_q.query_fixture_made FROM aivis_q.query_fixture', kind: 'SELECT INTO' },
    { sql: 'SELECT aivis_q.forget()', kind: 'DELETE' },
    { sql: 'SET search_path TO public', kind: 'SET' },
    { sql: 'SELECT 1; SELECT pg_sleep(0)' },
  ],
});
