import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { createPostgresDestination } from '../../connectors/postgres/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { normalizeRow } from '../conformance/normalize.ts';
import { runSyncSuite } from './sync-suite.ts';

const url = inject('postgresUrl');
const pool = new pg.Pool({ connectionString: url, max: 2, options: '-c TimeZone=UTC' });
afterAll(() => pool.end());

runSyncSuite({
  name: 'postgres',
  create: async (schema) => createPostgresDestination({ type: 'postgres', url, schema }, { logger: silentLogger }),
  async readRows(_destination, schema, table) {
    const columns = table.columns.map((c) => `"${c.name}"::text AS "${c.name}"`).join(', ');
    const { rows } = await pool.query(`SELECT ${columns} FROM "${schema}"."${table.name}"`);
    return rows.map((row) => normalizeRow(table, row));
  },
  cleanup: async (schema) => void (await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)),
});
