/** What the conformance suite cannot say about DuckDB: another process on the file, check(), the file's folder, the default file name. */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { createDuckdbDestination } from '../../../connectors/duckdb/index.ts';
import type { Destination } from '../../../src/destination/destination.ts';
import { listActiveWebsites } from '../../../src/destination/queries/active-websites.ts';
import { DestinationError, ExitCode, LockHeldError } from '../../../src/errors.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { ENGINE_TABLES, websitesTable } from '../../../src/tables/index.ts';
import { kindsRow, kindsTable } from '../../conformance/fixtures.ts';
import { queryDuckDbFile } from '../../support/duckdb-file.ts';
import { spawnLockHolder } from '../../locks/spawn-lock-holder.ts';
import { commitFlush, readStateEntries } from '../../../src/state/state-rows.ts';

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

  it('check() on a file that does not exist yet proves the folder on a scratch file and leaves nothing behind', async () => {
    const folder = mkdtempSync(path.join(dir, 'fresh-'));
    const d = destination(path.join(folder, 'check.duckdb'), 'reporting');
    await d.open();
    await d.check({ tables: [], views: [] });
    expect(readdirSync(folder)).toEqual([]);
    // The first statement that needs the file creates it.
    await d.ensureTables(ENGINE_TABLES);
    expect(await readStateEntries(d)).toEqual([]);
    expect(readdirSync(folder)).toContain('check.duckdb');
    const ddl = d.describeDdl([websitesTable]);
    expect(ddl[0]).toBe('CREATE SCHEMA IF NOT EXISTS "check"."reporting"');
    expect(ddl[1]).toContain('CREATE TABLE IF NOT EXISTS "check"."reporting"."websites"');
  });

  it('check() on a file that exists creates the schema there and leaves no probe table', async () => {
    const file = path.join(dir, 'existing.duckdb');
    const instance = await DuckDBInstance.create(file);
    instance.closeSync();
    const d = destination(file, 'reporting');
    await d.open();
    await d.check({ tables: [], views: [] });
    await d.close();
    const [row] = await queryDuckDbFile(
      file,
      `SELECT schema_name, (SELECT count(*)::INTEGER FROM information_schema.tables WHERE table_schema = 'reporting') AS n FROM duckdb_schemas() WHERE schema_name = 'reporting'`,
    );
    expect(row).toEqual({ schema_name: 'reporting', n: 0 });
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

  it('refuses (exit 2) a path whose folder is a file', async () => {
    const blocker = path.join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const file = path.join(blocker, 'aivis.duckdb');
    await expect(destination(file).open()).rejects.toThrow(
      new DestinationError(`destination.path ${file}: ${blocker} is a file, not a folder`, ExitCode.Usage),
    );
  });

  it("works with a file named like its schema (aivis.duckdb, schema aivis: aivis 0.1's default)", async () => {
    const d = destination(path.join(dir, 'aivis.duckdb'), 'aivis');
    await d.open();
    await d.ensureTables([websitesTable]);
    await d.ensureTables([websitesTable]);
    expect(await listActiveWebsites(d)).toEqual([]);
  });
});
