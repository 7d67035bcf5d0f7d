/** What the conformance suite cannot say about DuckDB: another process on the file, check(), nested paths, the default file name. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { createDuckdbDestination } from '../../connectors/duckdb/index.ts';
import type { Destination } from '../../src/destination/destination.ts';
import { DestinationError, LockHeldError } from '../../src/errors.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { ENGINE_TABLES, websitesTable } from '../../src/tables/index.ts';
import { kindsRow, kindsTable } from '../conformance/fixtures.ts';
import { spawnLockHolder } from '../support/spawn-lock-holder.ts';
import { commitFlush, readStateEntries } from '../../src/state/state-rows.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-duckdb-destination-'));
const opened: Destination[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
  rmSync(dir, { recursive: true, force: true });
});

function destination(file: string, schema = 'aivis'): Destination {
  const d = createDuckdbDestination({ type: 'duckdb', path: file, schema }, { logger: silentLogger });
  opened.push(d);
  return d;
}

describe('duckdb destination', () => {
  it('refuses a file another process has open, naming its pid, and opens it once that process is killed', async () => {
    const file = path.join(dir, 'shared.duckdb');
    const holder = await spawnLockHolder('duckdb', file, 'aivis');
    try {
      const d = destination(file);
      const refusal = d.open();
      await expect(refusal).rejects.toBeInstanceOf(LockHeldError);
      await expect(refusal).rejects.toThrow(
        `another process holds the DuckDB file "${file}": pid ${holder.pid} (DuckDB lets one process open a file at a time)`,
      );
      await holder.kill();
      await d.open();
      // The killed run's lock row is stale: the file lock died with it, so a new run takes over.
      const lock = await d.acquireLock({
        runId: 'run-here',
        host: 'h',
        pid: process.pid,
        startedAt: '2026-03-01T00:00:00Z',
        workspace: 'default',
      });
      await lock.release();
    } finally {
      await holder.kill();
    }
  });

  it('check() creates the schema in a file under folders that do not exist yet, and leaves no probe', async () => {
    const file = path.join(dir, 'nested', 'deeper', 'check.duckdb');
    const d = destination(file, 'reporting');
    await d.open();
    await d.check({ tables: [], views: [] });
    const instance = await DuckDBInstance.fromCache(file);
    const connection = await instance.connect();
    const tables = await connection.runAndReadAll(
      `SELECT schema_name, (SELECT count(*) FROM information_schema.tables WHERE table_schema = 'reporting') AS n FROM duckdb_schemas() WHERE schema_name = 'reporting'`,
    );
    expect(tables.getRowObjectsJS()).toEqual([{ schema_name: 'reporting', n: 0n }]);
    connection.closeSync();
    instance.closeSync();
    await d.ensureTables(ENGINE_TABLES);
    expect(await readStateEntries(d)).toEqual([]);
    const ddl = d.describeDdl([websitesTable]);
    expect(ddl[0]).toBe('CREATE SCHEMA IF NOT EXISTS "check"."reporting"');
    expect(ddl[1]).toContain('CREATE TABLE IF NOT EXISTS "check"."reporting"."websites"');
  });

  it('a refused value fails the flush with a message naming the table and the value', async () => {
    const d = destination(path.join(dir, 'bad.duckdb'));
    await d.open();
    await d.ensureTables([kindsTable]);
    const error = await commitFlush(d, {
      tables: [{ table: kindsTable, rows: [kindsRow('r001', { j: '{"not json' })] }],
      state: [],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DestinationError);
    expect((error as Error).message).toMatch(
      /^DuckDB refused a flush into "bad"\."aivis"\."conformance_kinds": Conversion Error: Malformed JSON/,
    );
    expect((error as Error).message).toContain('{"not json');
  });

  it('says which file it cannot open when its folder cannot be made', async () => {
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const file = path.join(blocker, 'aivis.duckdb');
    await expect(destination(file).open()).rejects.toThrow(
      new DestinationError(`cannot open the DuckDB file "${file}": EEXIST: file already exists, mkdir '${blocker}'`),
    );
  });

  it("works with a file named like its schema (aivis.duckdb, schema aivis: aivis 0.1's default)", async () => {
    const d = destination(path.join(dir, 'aivis.duckdb'), 'aivis');
    await d.open();
    await d.ensureTables([websitesTable]);
    await d.ensureTables([websitesTable]);
    expect(await d.listActiveWebsites()).toEqual([]);
  });
});
