/**
 * Records as long as the page bounds allow (docs/spec-reading.md#page-bounds), each with its
 * `_raw`, flushed as a sync flushes them (the engine's flush buffer under the destination's own
 * bounds) into a real DuckDB file. DuckDB keeps strings of 256 KB or more of the row group it
 * appends to in memory, so the default `memory_limit` must hold the longest page aivis accepts
 * (16 records of 4 MiB: 128MB did not), and a limit too small for a load says which key to
 * raise, not DuckDB's `SET memory_limit` (docs/destinations/duckdb.md#memory).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDuckdbDestination } from '../../../connectors/duckdb/index.ts';
import type { DuckdbConfig } from '../../../schemas/destinations/duckdb.ts';
import { MAX_RECORD_BYTES, MAX_RESPONSE_BYTES } from '../../../src/client/capped-body.ts';
import { column, type TableSpec } from '../../../src/destination/table-spec.ts';
import { silentLogger } from '../../../src/log/logger.ts';
import { FlushBuffer } from '../../../src/run/flush-buffer.ts';
import { DestinationStateStore } from '../../../src/state/destination-state-store.ts';
import { ENGINE_TABLES } from '../../../src/tables/index.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'aivis-duckdb-largest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const long: TableSpec = {
  name: 'long_records',
  description: 'Records as long as the longest page holds.',
  primaryKey: ['id'],
  columns: [
    column('id', 'string', false, 'id'),
    column('sentence', 'string', 'The long text.'),
    column('_raw', 'json', 'The record as read.'),
  ],
};

/** The longest page: as many records just under the record cap as the body cap holds. */
const RECORDS = MAX_RESPONSE_BYTES / MAX_RECORD_BYTES;
const CHARS = MAX_RECORD_BYTES - 2_000;

/** Loads the longest page into a fresh file under `limits`, a record per unit, as the feed reader hands them on. */
async function loadLongestPage(name: string, limits: Partial<DuckdbConfig> = {}): Promise<bigint> {
  const destination = createDuckdbDestination(
    { type: 'duckdb', path: path.join(dir, `${name}.duckdb`), schema: 'aivis', ...limits },
    { logger: silentLogger },
  );
  await destination.open();
  try {
    await destination.ensureTables([...ENGINE_TABLES, long]);
    const stateStore = new DestinationStateStore(destination);
    const buffer = new FlushBuffer({
      bounds: destination.capabilities,
      commit: (flush) => stateStore.commit(destination, flush),
      now: () => 0,
    });
    for (let n = 0; n < RECORDS; n++) {
      const sentence = `${n} `.padEnd(CHARS, 'w');
      await buffer.add({
        tables: [
          { table: long, rows: [{ id: `men_${n}`, sentence, _raw: JSON.stringify({ id: `men_${n}`, sentence }) }] },
        ],
      });
    }
    await buffer.flush();
    // Counted in the database: reading 130 MB of rows back would test the reader.
    const [row] = await destination
      .bookkeeping()
      .select(`SELECT count(*) AS n FROM "aivis"."long_records" WHERE length(sentence) = ${CHARS}`, []);
    return row!.n as bigint;
  } finally {
    await destination.close();
  }
}

describe('duckdb: the longest page aivis accepts', () => {
  it(`loads ${RECORDS} records of ${CHARS.toLocaleString('en-US')} characters, each with its _raw, at the default memory_limit`, async () => {
    expect(await loadLongestPage('defaults')).toBe(BigInt(RECORDS));
  }, 120_000);

  it('under a memory_limit too small for it, fails the flush in one line naming destination.memory_limit', async () => {
    const failure = await loadLongestPage('small', { memory_limit: '64MB' }).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(
      /^DuckDB ran out of its memory_limit \(64MB\) in a flush into "small"\."aivis"\."long_records" \([^\n]+\): set destination\.memory_limit higher \(e\.g\. 1GB\) and run again; what earlier flushes committed is kept, and the run resumes from it$/,
    );
  }, 120_000);
});
