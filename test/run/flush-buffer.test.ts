import { describe, expect, it } from 'vitest';
import type { StateEntry } from '../../src/state/state-entry.ts';
import { column, type TableSpec } from '../../src/destination/table-spec.ts';
import { DestinationStateStore } from '../../src/state/destination-state-store.ts';
import { MAX_FLUSH_TEXT } from '../../src/feed/durable-unit.ts';
import { FlushBuffer } from '../../src/run/flush-buffer.ts';
import { ENGINE_TABLES } from '../../src/tables/index.ts';
import { openFakeDestination } from '../support/fake-destination.ts';
import { readRows } from '../../src/destination/queries/read-rows.ts';
import { readStateEntries } from '../../src/state/state-rows.ts';

const items: TableSpec = {
  name: 'items',
  description: 'The items test table.',
  primaryKey: ['id'],
  columns: [column('id', 'string', false, 'id'), column('n', 'int64', 'n')],
};
const state = (cursor: string): StateEntry => ({
  stream: 'items',
  scope: 'web_1',
  state: { frontier: null, cursor, pending_upper_bound: null },
  updatedAt: '2026-01-01T00:00:00Z',
});
const page = (ids: string[], cursor: string) => ({
  tables: [{ table: items, rows: ids.map((id) => ({ id, n: 1 })) }],
  state: state(cursor),
});

async function setup(maxRowsPerFlush: number, faults = {}) {
  const destination = await openFakeDestination({ faults, capabilities: { maxRowsPerFlush, maxSecondsPerFlush: 60 } });
  await destination.ensureTables([...ENGINE_TABLES, items]);
  let clock = 0;
  const flushes: number[] = [];
  const stateStore = new DestinationStateStore(destination);
  const buffer = new FlushBuffer({
    bounds: destination.capabilities,
    commit: (flush) => stateStore.commit(destination, flush),
    now: () => clock,
    onFlush: (_result, rows) => flushes.push(rows),
  });
  return { destination, buffer, flushes, advance: (ms: number) => (clock += ms) };
}

describe('flush buffer', () => {
  it('commits whole pages once the row bound is reached, with the state of the last page', async () => {
    const { destination, buffer, flushes } = await setup(3);
    await buffer.add(page(['a', 'b'], 'c1'));
    expect(destination.commitCalls).toBe(0);
    await buffer.add(page(['c', 'd'], 'c2'));
    expect(flushes).toEqual([4]);
    expect((await readRows(destination, items)).map((r) => r.id).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect((await readStateEntries(destination)).map((e) => e.state.cursor)).toEqual(['c2']);
  });

  it('commits on the time bound', async () => {
    const { buffer, flushes, advance } = await setup(1000);
    await buffer.add(page(['a'], 'c1'));
    advance(60_000);
    await buffer.add(page(['b'], 'c2'));
    expect(flushes).toEqual([2]);
  });

  it('commits once the buffered text reaches its bound, whatever the row bound', async () => {
    const { buffer, flushes } = await setup(1_000_000);
    const big = (id: string) => ({
      tables: [{ table: items, rows: [{ id: id.padEnd(MAX_FLUSH_TEXT / 2, 'x'), n: 1 }] }],
    });
    await buffer.add(big('a'));
    expect(flushes).toEqual([]);
    await buffer.add(big('b'));
    expect(flushes).toEqual([2]);
  });

  it('after a failed commit refuses every later page, so no later state can skip the lost rows', async () => {
    const { destination, buffer } = await setup(1, { failCommitBefore: 1 });
    await expect(buffer.add(page(['a'], 'c1'))).rejects.toThrow();
    await expect(buffer.add(page(['b'], 'c2'))).rejects.toThrow();
    await expect(buffer.flush()).rejects.toThrow();
    expect(await readRows(destination, items)).toEqual([]);
    expect(await readStateEntries(destination)).toEqual([]);
  });
});
