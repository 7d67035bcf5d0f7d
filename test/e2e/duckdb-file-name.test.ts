/** A database file whose name has several dots (`aivis.prod.duckdb`): DuckDB names its catalog up to the first dot. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createDuckdbDestination } from '../../connectors/duckdb/index.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { stateEntry } from '../conformance/fixtures.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-duckdb-name-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('syncs into a file named aivis.prod.duckdb', async () => {
  const destination = createDuckdbDestination({ type: 'duckdb', path: path.join(dir, 'aivis.prod.duckdb'), schema: 'aivis' }, { logger: silentLogger });
  await destination.open();
  try {
    await destination.ensureTables(ENGINE_TABLES);
    const entry = stateEntry('mentions', 'web_1', '2026-03-01T00:00:00Z');
    await destination.commit({ tables: [], state: [entry] });
    expect(await destination.readState()).toEqual([entry]);
  } finally {
    await destination.close();
  }
});
