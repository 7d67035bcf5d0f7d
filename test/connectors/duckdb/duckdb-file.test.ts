/**
 * The DuckDB database file itself: names DuckDB turns into an unusual catalog name
 * (`aivis.prod.duckdb`, `.hidden.duckdb`, `main.duckdb`), and who may read it.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createDuckdbDestination } from '../../../connectors/duckdb/index.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { ENGINE_TABLES } from '../../../src/tables/index.ts';
import { stateEntry } from '../../conformance/fixtures.ts';
import { commitFlush, readStateEntries } from '../../../src/state/state-rows.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-duckdb-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mode = (file: string) => statSync(file).mode & 0o777;
/** The process umask, read without changing it (`process.umask()` without a mask is deprecated). */
const currentUmask = () => {
  const mask = process.umask(0o022);
  process.umask(mask);
  return mask;
};

// DuckDB names a file's catalog by the first non-empty part between dots, `main` and `temp` with `_db`.
it.each(['aivis.prod.duckdb', '.hidden.duckdb', 'main.duckdb'])('syncs into a file named %s', async (name) => {
  const destination = createDuckdbDestination(
    { type: 'duckdb', path: path.join(dir, name), schema: 'aivis' },
    { logger: silentLogger },
  );
  await destination.open();
  try {
    await destination.ensureTables(ENGINE_TABLES);
    const entry = stateEntry('mentions', 'web_1', '2026-03-01T00:00:00Z');
    await commitFlush(destination, { tables: [], state: [entry] });
    expect(await readStateEntries(destination)).toEqual([entry]);
  } finally {
    await destination.close();
  }
});

it('creates the database file and its write-ahead log readable by the owner only (0600), then restores the umask', async () => {
  const before = currentUmask();
  expect(before & 0o077).not.toBe(0o077); // otherwise this test proves nothing
  const file = path.join(dir, 'private.duckdb');
  const destination = createDuckdbDestination(
    { type: 'duckdb', path: file, schema: 'aivis' },
    { logger: silentLogger },
  );
  await destination.open();
  try {
    await destination.ensureTables(ENGINE_TABLES);
    await commitFlush(destination, { tables: [], state: [stateEntry('mentions', 'web_1', '2026-03-01T00:00:00Z')] });
    expect(mode(file)).toBe(0o600);
    expect(existsSync(`${file}.wal`)).toBe(true);
    expect(mode(`${file}.wal`)).toBe(0o600);
  } finally {
    await destination.close();
  }
  expect(mode(file)).toBe(0o600);
  expect(currentUmask()).toBe(before);
});
