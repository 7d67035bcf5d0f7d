/** Importing and creating a destination loads no driver; open() loads only its own (docs/architecture.md#destinations). */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs `body` in a fresh Node process and returns the driver modules it resolved. */
function driversLoaded(body: string): string[] {
  const script = `
    import { registerHooks } from 'node:module';
    const seen = new Set();
    registerHooks({ resolve(specifier, context, next) { if (/^(pg|pg-copy-streams|@duckdb\\/|snowflake-sdk|@google-cloud\\/)/.test(specifier)) seen.add(specifier); return next(specifier, context); } });
    const { silentLogger } = await import('./src/log/logger.ts');
    const { createPostgresDestination } = await import('./connectors/postgres/index.ts');
    const { createDuckdbDestination } = await import('./connectors/duckdb/index.ts');
    ${body}
    console.log(JSON.stringify([...seen].sort()));`;
  const run = spawnSync(
    process.execPath,
    ['--import', './test/setup/loopback-guard.ts', '--input-type=module', '-e', script],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as string[];
}

it('creating the Postgres and DuckDB destinations loads neither driver', () => {
  expect(
    driversLoaded(`
      createPostgresDestination({ type: 'postgres', url: 'postgres://u:p@127.0.0.1:1/db', schema: 'aivis' }, { logger: silentLogger });
      createDuckdbDestination({ type: 'duckdb', path: ':memory:', schema: 'aivis' }, { logger: silentLogger });`),
  ).toEqual([]);
});

it('opening DuckDB loads the DuckDB engine and no other driver', () => {
  const loaded = driversLoaded(`
      const d = createDuckdbDestination({ type: 'duckdb', path: ':memory:', schema: 'aivis' }, { logger: silentLogger });
      await d.open();
      await d.close();`);
  expect(loaded).toContain('@duckdb/node-api');
  expect(loaded.filter((s) => !s.startsWith('@duckdb/'))).toEqual([]);
});

it('loading a config through the connector registry and creating each destination loads no driver', () => {
  expect(
    driversLoaded(`
      const { configSchemaOf } = await import('./connectors/registry.ts');
      const { createDestination } = await import('./src/cli/destination-factory.ts');
      const source = { base_url: 'http://127.0.0.1:1', api_key: 'k' };
      for (const destination of [
        { type: 'postgres', url: 'postgres://u:p@127.0.0.1:1/db' },
        { type: 'duckdb', path: ':memory:' },
        { type: 'bigquery', project: 'p' },
        { type: 'snowflake', account: 'a', username: 'u', password: 'p', warehouse: 'w', database: 'd' },
      ]) {
        const config = configSchemaOf().parse({ source, destination });
        await createDestination(config.destination, { logger: silentLogger });
      }`),
  ).toEqual([]);
});
