/**
 * `import-prompts --from-table/--from-query` on Postgres: the real engine (test setup), a fresh
 * schema for the table and the receipts; and a user without SELECT on the table.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startHarness } from './import-harness.ts';
import { describeWarehouseSource } from './warehouse-source-suite.ts';

const url = inject('postgresUrl');
const schema = `imw_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
let db: pg.Client;

describeWarehouseSource('Postgres', {
  async setup() {
    db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
    process.env.AIVIS_WAREHOUSE_TEST_DATABASE_URL = url;
    return ['  type: postgres', '  url: ${AIVIS_WAREHOUSE_TEST_DATABASE_URL}', `  schema: ${schema}`];
  },
  async teardown() {
    await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db.end();
  },
  exec: async (sql) => void (await db.query(sql)),
  column: (name) => name,
  types: { text: 'text' },
  arrays: {
    textArray: 'text[]',
    tags: (tags) => `ARRAY[${tags.map((t) => `'${t}'`).join(', ')}]`,
    integers: 'ARRAY[1, 2]',
  },
  random: 'random()',
  digests: async (websiteId) =>
    Number(
      (
        await db.query(
          'SELECT count(DISTINCT text_sha256) AS n FROM prompt_import_items WHERE website_id = $1 AND text_sha256 IS NOT NULL',
          [websiteId],
        )
      ).rows[0].n,
    ),
});

describe('import-prompts --from-table on Postgres without SELECT on the table', () => {
  const role = `aivis_ro_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const own = `imp_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw-${role}'`);
    await admin.query(`CREATE SCHEMA ${own} AUTHORIZATION ${role}`);
    await admin.query(`CREATE TABLE ${own}.secret_prompts (prompt_text text)`);
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${own} CASCADE`);
    await admin.query(`DROP OWNED BY ${role}; DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  it('is exit 2 naming the table and the GRANT, before any request', async () => {
    const limited = new URL(url);
    limited.username = role;
    limited.password = `pw-${role}`;
    process.env.AIVIS_WAREHOUSE_LIMITED_URL = limited.href;
    const h = await startHarness(
      ['destination:', '  type: postgres', '  url: ${AIVIS_WAREHOUSE_LIMITED_URL}', `  schema: ${own}`, ''].join('\n'),
      { websites: 0 },
    );
    try {
      const result = await h.run({ 'from-table': 'secret_prompts' });
      expect(result.error).toBe(
        `--from-table secret_prompts: the destination cannot read it: permission denied: Postgres user "${role}" lacks SELECT on table ${own}.secret_prompts in database postgres; ` +
          `grant it: GRANT SELECT ON ALL TABLES IN SCHEMA ${own} TO ${role}; nothing was sent`,
      );
      expect(result.code).toBe(2);
      expect(h.sandbox.stats.byRoute['prompts.import'] ?? 0).toBe(0);
    } finally {
      await h.sandbox.close();
    }
  });
});

describe('import-prompts --from-query on Postgres writes nothing', () => {
  const own = `imq_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${own}; CREATE SEQUENCE ${own}.seq`);
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${own} CASCADE`);
    await admin.end();
  });

  it('refuses a nextval in its READ ONLY transaction, exit 2, the sequence untouched, nothing sent', async () => {
    process.env.AIVIS_WAREHOUSE_TEST_DATABASE_URL = url;
    const h = await startHarness(
      ['destination:', '  type: postgres', '  url: ${AIVIS_WAREHOUSE_TEST_DATABASE_URL}', `  schema: ${own}`, ''].join(
        '\n',
      ),
      { websites: 0 },
    );
    try {
      const result = await h.run({ 'from-query': `SELECT nextval('${own}.seq')::text AS prompt_text` });
      expect(result.error).toBe(
        "--from-query runs read-only statements only, and this is a nextval() statement: refused before it ran (read with SELECT; change data with the warehouse's own tools)",
      );
      expect(result.code).toBe(2);
      expect(h.sandbox.stats.byRoute['prompts.import'] ?? 0).toBe(0);
      expect((await admin.query(`SELECT nextval('${own}.seq') AS n`)).rows[0].n).toBe('1');
    } finally {
      await h.sandbox.close();
    }
  });
});
