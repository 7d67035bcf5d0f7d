/** Tables and rows the conformance topics write. Keys are plain ASCII so any collation orders them alike. */
import type { LockOwner } from '../../src/destination/destination.ts';
import type { Flush, StateEntry } from '../../src/state/state-entry.ts';
import { column, type Row, type TableSpec } from '../../src/destination/table-spec.ts';

/** One column of every logical type, all nullable, keyed by `id`. */
export const kindsTable: TableSpec = {
  name: 'conformance_kinds',
  description: 'The conformance_kinds test table.',
  primaryKey: ['id'],
  columns: [
    column('id', 'string', false, 'id'),
    column('s', 'string', 's'),
    column('i', 'int64', 'i'),
    column('f', 'float64', 'f'),
    column('b', 'boolean', 'b'),
    column('t', 'timestamp', 't'),
    column('j', 'json', 'j'),
  ],
};

/** A composite key and a write-once column, like `websites._first_seen_at`. */
export const pairsTable: TableSpec = {
  name: 'conformance_pairs',
  description: 'The conformance_pairs test table.',
  primaryKey: ['a', 'b'],
  insertOnly: ['first_seen'],
  columns: [
    column('a', 'string', false, 'a'),
    column('b', 'string', false, 'b'),
    column('v', 'int64', 'v'),
    column('first_seen', 'timestamp', false, 'first_seen'),
  ],
};

/** A kinds row with every nullable column NULL except those given. */
export function kindsRow(
  id: string,
  values: Partial<Record<'s' | 'i' | 'f' | 'b' | 't' | 'j', Row[string]>> = {},
): Row {
  return { id, s: null, i: null, f: null, b: null, t: null, j: null, ...values };
}

export function flushOf(table: TableSpec, rows: readonly Row[], state: readonly StateEntry[] = []): Flush {
  return { tables: [{ table, rows }], state };
}

export function stateEntry(
  stream: string,
  scope: string,
  frontier: string | null,
  cursor: string | null = null,
): StateEntry {
  return {
    stream,
    scope,
    state: { frontier, cursor, pending_upper_bound: cursor ? '2026-03-01T00:00:00.000000Z' : null },
    updatedAt: '2026-03-01T12:00:00.123456Z',
  };
}

export function owner(runId: string, pid: number, workspace = 'default'): LockOwner {
  return { runId, host: 'conformance-host', pid, startedAt: '2026-03-01T12:00:00.000Z', workspace };
}
