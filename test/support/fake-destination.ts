/**
 * An in-memory destination for the sync engine's tests: passes the conformance suite and
 * injects faults (fail the Nth commit before or after it applies, fail on a given table) and
 * counts commits. Several fakes share one `FakeStore` to stand for one schema seen by
 * several runs (the lock tests).
 */
import { parseJsonBody } from '../../src/client/json-body.ts';
import { evolvedCells } from '../../src/evolution/raw-cell.ts';
import type { Destination, DestinationLock, FlushResult, LockOwner } from '../../src/destination/destination.ts';
import type { StoredStateRow } from '../../src/destination/engine-tables.ts';
import { lockHeldError } from '../../src/destination/run-lock.ts';
import type { Row, TableSpec } from '../../src/destination/table-spec.ts';
import { microsecondTimestamp } from '../../src/destination/timestamp-micros.ts';
import { updatableColumns } from '../../src/destination/upsert-columns.ts';
import { storedWorkspace } from '../../src/destination/workspace.ts';
import { DestinationError } from '../../src/errors.ts';
import { rejectedTable, runsTable, stateTable, websitesTable } from '../../src/tables/index.ts';

interface StoredTable {
  spec: TableSpec;
  rows: Map<string, Row>;
}

/** One schema's contents. */
export interface FakeStore {
  readonly tables: Map<string, StoredTable>;
  /** The live lock of each workspace. */
  readonly lockHolders: Map<string, LockOwner>;
}

export function createFakeStore(): FakeStore {
  return { tables: new Map(), lockHolders: new Map() };
}

/** Faults to inject; change them between calls. Commit numbers count every `commit` call from 1. */
export interface FakeFaults {
  /** Throw on this commit, before anything is applied (the commit never happened). */
  failCommitBefore?: number;
  /** Apply this commit fully, then throw (the run dies before it learns the commit landed). */
  failCommitAfter?: number;
  /** Throw when the commit reaches rows of this table (non-transactional fakes keep earlier tables). */
  failOnTable?: string;
}

export interface FakeDestination extends Destination {
  readonly store: FakeStore;
  readonly faults: FakeFaults;
  /** `commit` calls so far, failed ones included. */
  readonly commitCalls: number;
  /** Commits that applied their rows and state. */
  readonly commitsApplied: number;
  /** Rows of `table` as written (logical values), in key order. */
  rows(table: string): Row[];
}

export interface FakeDestinationOptions {
  store?: FakeStore;
  schema?: string;
  transactional?: boolean;
  faults?: FakeFaults;
}

export function createFakeDestination(options: FakeDestinationOptions = {}): FakeDestination {
  const store = options.store ?? createFakeStore();
  const schema = options.schema ?? 'aivis';
  const transactional = options.transactional ?? true;
  const faults: FakeFaults = options.faults ?? {};
  let commitCalls = 0;
  let commitsApplied = 0;

  const table = (name: string): StoredTable => {
    const found = store.tables.get(name);
    if (!found) throw new DestinationError(`table "${schema}"."${name}" does not exist (run ensureTables first)`);
    return found;
  };
  const keyOf = (spec: TableSpec, row: Row) => JSON.stringify(spec.primaryKey.map((k) => String(row[k])));
  const checkRow = (spec: TableSpec, row: Row) => {
    for (const col of spec.columns) {
      if (!col.nullable && (row[col.name] === null || row[col.name] === undefined)) {
        throw new DestinationError(
          `null value in column "${col.name}" of table "${spec.name}" violates not-null constraint`,
        );
      }
    }
  };
  const upsert = (spec: TableSpec, rows: readonly Row[]): number => {
    const stored = table(spec.name);
    const written = new Set<string>();
    for (const row of rows) {
      const key = keyOf(spec, row);
      const old = stored.rows.get(key);
      const kept = old ? Object.fromEntries((spec.insertOnly ?? []).map((c) => [c, old[c] ?? null])) : {};
      stored.rows.set(key, old ? { ...old, ...pick(row, updatableColumns(spec)), ...kept } : { ...row });
      written.add(key);
    }
    return written.size;
  };

  const destination: FakeDestination = {
    type: 'fake',
    capabilities: { transactional, maxRowsPerFlush: 1000, maxSecondsPerFlush: 5 },
    namespace: { database: 'fake', schema },
    store,
    faults,
    get commitCalls() {
      return commitCalls;
    },
    get commitsApplied() {
      return commitsApplied;
    },
    rows: (name) =>
      [...table(name).rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row),
    async open() {},
    async check() {},
    async ensureTables(specs) {
      for (const spec of specs) {
        const found = store.tables.get(spec.name);
        if (found) found.spec = { ...spec, columns: mergeColumns(found.spec, spec) };
        else store.tables.set(spec.name, { spec, rows: new Map() });
      }
    },
    async columnTypes(_tables) {
      return new Map(
        [...store.tables].map(([name, { spec }]) => [name, new Map(spec.columns.map((c) => [c.name, c.type]))]),
      );
    },
    // The loader's own extraction: the fake has no JSON functions to fill with.
    async fillFromRaw(spec, columns) {
      for (const [key, row] of table(spec.name).rows)
        table(spec.name).rows.set(key, { ...row, ...evolvedCells(columns, parseJsonBody(String(row._raw)).raw) });
    },
    describeDdl: (specs) =>
      specs.map((s) => `CREATE TABLE ${schema}.${s.name} (${s.columns.map((c) => `${c.name} ${c.type}`).join(', ')})`),
    // Views are SQL: the fake has none, and the real destinations' suites check them.
    async ensureViews() {},
    describeViewDdl: (views) => views.map((v) => `CREATE VIEW ${schema}.${v.name}`),
    async commit(parts): Promise<FlushResult> {
      commitCalls += 1;
      if (faults.failCommitBefore === commitCalls)
        throw new DestinationError(`fake: commit ${commitCalls} failed before applying`);
      const check = (part: (typeof parts)[number]) => {
        if (faults.failOnTable === part.table.name)
          throw new DestinationError(`fake: commit failed on table "${part.table.name}"`);
        table(part.table.name);
        for (const row of part.rows) checkRow(part.table, row);
      };
      if (transactional) parts.forEach(check);
      const rowsWritten: Record<string, number> = {};
      for (const part of parts) {
        if (!transactional) check(part);
        const n = upsert(part.table, part.rows);
        rowsWritten[part.table.name] = (rowsWritten[part.table.name] ?? 0) + n;
      }
      commitsApplied += 1;
      if (faults.failCommitAfter === commitCalls)
        throw new DestinationError(`fake: commit ${commitCalls} applied, then failed`);
      return { rowsWritten };
    },
    async readState(workspace): Promise<StoredStateRow[]> {
      const stored = store.tables.get(stateTable.name);
      return stored
        ? [...stored.rows.values()]
            .filter((r) => storedWorkspace(r._workspace) === workspace)
            .map((r) => r as unknown as StoredStateRow)
        : [];
    },
    async deleteState(match) {
      const stored = store.tables.get(stateTable.name);
      if (!stored) return 0;
      let deleted = 0;
      for (const [key, row] of stored.rows) {
        if (
          storedWorkspace(row._workspace) === match.workspace &&
          (match.stream === undefined || row.stream === match.stream) &&
          (match.scope === undefined || row.scope === match.scope)
        ) {
          stored.rows.delete(key);
          deleted += 1;
        }
      }
      return deleted;
    },
    async listActiveWebsites() {
      return [...table(websitesTable.name).rows.values()]
        .filter((r) => r._removed_at === null || r._removed_at === undefined)
        .map((r) => ({ id: String(r.id), workspace: storedWorkspace(r._workspace) }));
    },
    async windowIds(query) {
      const stored = store.tables.get(query.table);
      if (!stored) return [];
      // Compared as the warehouses compare: stored (microsecond) timestamps.
      const stamp = (row: Row) => microsecondTimestamp(String(row[query.stampColumn]));
      return [...stored.rows.values()]
        .filter(
          (row) =>
            row.website_id === query.websiteId &&
            row[query.stampColumn] != null &&
            stamp(row) >= query.since &&
            (query.until === undefined || stamp(row) <= query.until),
        )
        .map((row) => String(row[query.idColumn]));
    },
    async markWebsitesRemoved(ids, removedAt) {
      const stored = table(websitesTable.name);
      for (const id of ids) {
        const key = keyOf(websitesTable, { id });
        const row = stored.rows.get(key);
        if (row && (row._removed_at === null || row._removed_at === undefined))
          stored.rows.set(key, { ...row, _removed_at: removedAt });
      }
    },
    async readRows(spec) {
      const stored = store.tables.get(spec.name);
      return stored ? [...stored.rows.values()].map((row) => ({ ...row })) : [];
    },
    async countRejected(runIds) {
      const stored = store.tables.get(rejectedTable.name);
      return stored ? [...stored.rows.values()].filter((row) => runIds.includes(String(row._run_id))).length : 0;
    },
    async markAbandonedRuns(currentRunId, workspace) {
      const runs = table(runsTable.name);
      for (const [key, row] of runs.rows) {
        if (row.status === 'running' && row.id !== currentRunId && storedWorkspace(row._workspace) === workspace)
          runs.rows.set(key, { ...row, status: 'abandoned' });
      }
    },
    async acquireLock(owner): Promise<DestinationLock> {
      const holder = store.lockHolders.get(owner.workspace);
      if (holder) throw lockHeldError(schema, owner.workspace, holder);
      store.lockHolders.set(owner.workspace, owner);
      return {
        async release() {
          if (store.lockHolders.get(owner.workspace) === owner) store.lockHolders.delete(owner.workspace);
        },
      };
    },
    async close() {},
  };
  return destination;
}

function pick(row: Row, columns: readonly string[]): Row {
  return Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c] ?? null]));
}

function mergeColumns(existing: TableSpec, wanted: TableSpec): TableSpec['columns'] {
  const known = new Set(existing.columns.map((c) => c.name));
  return [
    ...existing.columns,
    ...wanted.columns.filter((c) => !known.has(c.name)).map((c) => ({ ...c, nullable: true })),
  ];
}
