/**
 * Every DuckDB session aivis opens is bounded (docs/destinations/duckdb.md#memory): the
 * destination's and `aivis query`'s read the settings back through the connector, with the
 * defaults and with a user's values from a config file.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { duckdbDestination } from '../../../connectors/duckdb/descriptor.ts';
import { createDuckdbDestination, openDuckdbQuery } from '../../../connectors/duckdb/index.ts';
import { applyLimits } from '../../../connectors/duckdb/duckdb-session-limits.ts';
import { DestinationError } from '../../../src/errors.ts';
import type { DuckdbConfig } from '../../../schemas/destinations/duckdb.ts';
import { loadConfig } from '../../../src/config/load-config.ts';
import { assertReadOnlyStatement } from '../../../src/destination/read-only-query.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { configErrorLines, writeConfig, yaml } from '../../config/config-files.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-duckdb-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const execFileAsync = promisify(execFile);
const MODULE = path.resolve(import.meta.dirname, '../../../connectors/duckdb/duckdb-module.ts');

const SETTINGS =
  "SELECT current_setting('memory_limit') AS memory_limit, current_setting('threads') AS threads, current_setting('temp_directory') AS temp_directory";

/** The settings of the destination's own session on `config`'s file. */
async function destinationSettings(config: DuckdbConfig): Promise<Record<string, unknown>> {
  const d = createDuckdbDestination(config, { logger: silentLogger });
  await d.open();
  try {
    await d.ensureTables([]);
    const [row] = await d.bookkeeping().select(SETTINGS, []);
    return row!;
  } finally {
    await d.close();
  }
}

/** The settings `aivis query` runs a statement under, on `config`'s file. */
async function querySettings(config: DuckdbConfig): Promise<Record<string, unknown>> {
  const role = await openDuckdbQuery(config);
  try {
    const { columns, pages } = await role.run(await assertReadOnlyStatement(SETTINGS, role, 'aivis query'), 10);
    for await (const [row] of pages) return Object.fromEntries(columns.map((c, i) => [c, row![i]]));
    throw new Error('no row');
  } finally {
    await role.close();
  }
}

describe('duckdb session limits', () => {
  it('bounds the destination and aivis query by the defaults: 256MB, one thread, spilling beside the file', async () => {
    const file = path.join(dir, 'defaults.duckdb');
    const config: DuckdbConfig = { type: 'duckdb', path: file, schema: 'aivis' };
    // 256MB is DuckDB's 10^6 bytes: it prints in MiB.
    const expected = { memory_limit: '244.1 MiB', threads: 1n, temp_directory: `${file}.tmp` };
    expect(await destinationSettings(config)).toEqual(expected);
    expect(await querySettings(config)).toEqual(expected);
  });

  it('spills an in-memory database into a folder of its own in the temp folder, not the working directory', async () => {
    const settings = await destinationSettings({ type: 'duckdb', path: ':memory:', schema: 'aivis' });
    expect(settings.temp_directory).toMatch(new RegExp(`^${os.tmpdir()}/aivis-duckdb-[0-9a-f]{12}$`));
  });

  it("honours a user's memory_limit, threads and temp_directory (relative to the config's folder)", async () => {
    const configFile = await writeConfig(yaml`
      source:
        base_url: https://api.example.com
        api_key: \${AIVIS_API_KEY}
      destination:
        type: duckdb
        path: ./tuned.duckdb
        memory_limit: 1.5GB
        threads: 2
        temp_directory: ./spill
    `);
    const folder = path.dirname(configFile);
    const { config } = await loadConfig(configFile, { AIVIS_API_KEY: 'sk_test_limits_1' });
    const destination = config.destination as DuckdbConfig;
    expect(destination).toMatchObject({
      memory_limit: '1.5GB',
      threads: 2,
      temp_directory: path.join(folder, 'spill'),
    });
    const expected = { memory_limit: '1.3 GiB', threads: 2n, temp_directory: path.join(folder, 'spill') };
    expect(await destinationSettings(destination)).toEqual(expected);
    expect(await querySettings(destination)).toEqual(expected);
  });

  it('spills past memory_limit into temp_directory and removes the folder when the file closes', async () => {
    const spill = path.join(dir, 'spill-here');
    const d = createDuckdbDestination(
      {
        type: 'duckdb',
        path: path.join(dir, 'spill.duckdb'),
        schema: 'aivis',
        memory_limit: '32MB',
        temp_directory: spill,
      },
      { logger: silentLogger },
    );
    await d.open();
    try {
      await d.ensureTables([]);
      // About 80 MB of rows, sorted: more than the limit holds.
      const [row] = await d
        .bookkeeping()
        .select(
          "SELECT count(*) AS n FROM (SELECT repeat('x', 40) || i::VARCHAR AS s FROM range(1000000) r(i) ORDER BY s DESC OFFSET 1)",
          [],
        );
      expect(row).toEqual({ n: 999_999n });
      expect(existsSync(spill)).toBe(true);
    } finally {
      await d.close();
    }
    expect(existsSync(spill)).toBe(false);
  });

  it('refuses a memory_limit DuckDB cannot read, in one line naming the key', async () => {
    const { file, lines } = await configErrorLines(
      yaml`
      source:
        base_url: https://api.example.com
        api_key: \${AIVIS_API_KEY}
      destination:
        type: duckdb
        memory_limit: 80%
    `,
      { AIVIS_API_KEY: 'sk_test_limits_2' },
    );
    expect(lines).toEqual([
      `${file}:6: destination.memory_limit must be a number and a unit (KB, MB, GB, TB or KiB, MiB, GiB, TiB), like 256MB or 2GB (got "80%")`,
    ]);
  });

  it('keeps :memory: as it is and resolves temp_directory against the config folder', () => {
    const resolve = (file: string) => path.resolve('/configs', file);
    expect(
      duckdbDestination.withAbsolutePaths(
        { type: 'duckdb', path: ':memory:', schema: 'aivis', temp_directory: 'tmp' },
        resolve,
      ),
    ).toEqual({ type: 'duckdb', path: ':memory:', schema: 'aivis', temp_directory: '/configs/tmp' });
  });

  it("tells DuckDB's allocator to hand freed pages back within 100 ms before DuckDB loads, unless the user set it", async () => {
    const allocatorOptions = async (env: NodeJS.ProcessEnv) => {
      const script = `const { importDuckdb } = await import(${JSON.stringify(MODULE)}); await importDuckdb(); console.log(process.env.DUCKDB_JE_MALLOC_CONF);`;
      const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], { env });
      return stdout.trim();
    };
    const { DUCKDB_JE_MALLOC_CONF: _, ...inherited } = process.env;
    expect(await allocatorOptions(inherited)).toBe('dirty_decay_ms:100,muzzy_decay_ms:0');
    expect(await allocatorOptions({ ...inherited, DUCKDB_JE_MALLOC_CONF: 'dirty_decay_ms:0' })).toBe(
      'dirty_decay_ms:0',
    );
  });

  it('a value DuckDB refuses fails the session in one line naming the keys, not a stack trace', async () => {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const refused = await applyLimits((sql) => connection.run(sql), path.join(dir, 'refused.duckdb'), {
        memoryLimit: 'lots',
        threads: 1,
        tempDirectory: undefined,
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DestinationError);
      expect((refused as Error).message).toMatch(
        /^DuckDB refused the settings of \S+refused\.duckdb \(destination\.memory_limit, threads, temp_directory\): .+$/,
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
