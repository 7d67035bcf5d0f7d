/**
 * The PostgreSQL server of a bench run: `AIVIS_BENCH_DATABASE_URL` when set, otherwise the
 * same embedded server the tests start (test/setup/postgres.ts, reused rather than copied).
 * Each figure gets a database of its own, so no figure measures another's leftovers.
 */
import pg from 'pg';
import startTestPostgres from '../setup/postgres.ts';

/** A running server; `database(name)` creates a fresh database and returns its URL. */
export interface BenchPostgres {
  readonly url: string;
  readonly version: string;
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function openBenchPostgres(): Promise<BenchPostgres> {
  let url = process.env.AIVIS_BENCH_DATABASE_URL ?? '';
  let stop = async () => {};
  if (url === '') {
    // The test setup honours AIVIS_TEST_DATABASE_URL; the bench has its own variable.
    delete process.env.AIVIS_TEST_DATABASE_URL;
    stop = await startTestPostgres({ provide: (_key: string, value: string) => void (url = value) } as never);
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const { rows } = await admin.query<{ server_version: string }>('SHOW server_version');
  return {
    url,
    version: rows[0]?.server_version ?? 'unknown',
    async database(name) {
      const db = `aivis_bench_${name}_${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS "${db}"`);
      await admin.query(`CREATE DATABASE "${db}"`);
      const target = new URL(url);
      target.pathname = `/${db}`;
      return target.toString();
    },
    async stop() {
      await admin.end();
      await stop();
    },
  };
}
