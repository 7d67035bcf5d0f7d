/** A run whose lock connection dies (server restart, idle-session timeout) stops writing: another run may hold the lock by then. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { createPostgresDestination } from '../../connectors/postgres/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { owner, stateEntry } from '../conformance/fixtures.ts';
import { commitFlush } from '../../src/state/state-rows.ts';
import { until } from '../support/until.ts';

const url = inject('postgresUrl');
const admin = new pg.Pool({ connectionString: url, max: 1 });
afterAll(() => admin.end());

it('refuses to commit once the lock connection is gone', async () => {
  const schema = `lockloss_${randomBytes(4).toString('hex')}`;
  const destination = createPostgresDestination({ type: 'postgres', url, schema }, { logger: silentLogger });
  await destination.open();
  try {
    await destination.ensureTables(ENGINE_TABLES);
    const lock = await destination.acquireLock(owner('run_lockloss', process.pid));
    await commitFlush(destination, { tables: [], state: [stateEntry('mentions', 'web_1', 'f1')] });
    // What a server restart or an idle-session timeout does to the lock's connection.
    // Only this test's lock session (other test files share the server): it holds an advisory
    // lock and its last statement wrote this schema's lock row.
    const { rowCount } = await admin.query(
      `SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a
       WHERE a.pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted) AND a.query LIKE $1`,
      [`%"${schema}"."_aivis_lock"%`],
    );
    expect(rowCount).toBe(1);
    let error: unknown;
    const refused = async () => {
      error = await commitFlush(destination, { tables: [], state: [stateEntry('mentions', 'web_1', 'f2')] }).then(
        () => undefined,
        (e: unknown) => e,
      );
      return error !== undefined;
    };
    await until(refused, 'a commit refused once the lock connection was terminated', 30_000);
    expect((error as Error).message).toBe(
      'the run lock was lost (its Postgres connection closed), so another run may have started; stopped before writing more, and the next run resumes from the last committed page',
    );
    await lock.release().catch(() => undefined);
  } finally {
    await destination.close();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
});
