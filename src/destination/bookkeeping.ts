/**
 * The statements every SQL destination runs on its bookkeeping, written once: reading and
 * deleting saved state, listing and marking removed websites, marking abandoned runs, and the
 * ids of a website's rows in a window (`aivis verify`). Each
 * connector supplies a `BookkeepingSql` (how it writes names and parameters, and how it runs a
 * statement); the SQL is plain enough to read the same on Postgres, DuckDB, BigQuery and
 * Snowflake. See docs/architecture.md#adding-a-destination.
 */
import type { Destination } from './destination.ts';
import { REMOVABLE_TABLE, rejectedTable, runsTable, stateTable } from './engine-tables.ts';
import type { TableSpec } from './table-spec.ts';
import { storedWorkspace, WORKSPACE_COLUMN, workspaceCondition } from './workspace.ts';

/** One statement parameter and the type the warehouse should read it as. */
export interface SqlParam {
  readonly type: 'string' | 'timestamp';
  readonly value: string;
}

/** What the shared bookkeeping needs from a connector. */
export interface BookkeepingSql {
  /** The named table of the destination's schema, quoted and qualified. */
  table(name: string): string;
  /** A column name as the destination writes it. */
  column(name: string): string;
  /** The placeholder of the statement's `index`-th parameter (from 0), read as `param.type`. */
  placeholder(index: number, param: SqlParam): string;
  /** Whether the named table exists yet: before the first sync it does not. */
  tableExists(name: string): Promise<boolean>;
  /** Every row of `table`, each column in its logical form (names as the table spec writes them). */
  selectAll(table: TableSpec): Promise<Record<string, unknown>[]>;
  /** Runs a query; returns its rows. */
  select(sql: string, params: readonly SqlParam[]): Promise<Record<string, unknown>[]>;
  /** Runs an UPDATE or DELETE; returns how many rows it changed. */
  change(sql: string, params: readonly SqlParam[]): Promise<number>;
}

/** Website ids per `IN (...)` list: Snowflake caps a statement's binds, and long lists help no one. */
const IDS_PER_STATEMENT = 1000;

type Bookkeeping = Pick<
  Destination,
  | 'readState'
  | 'deleteState'
  | 'listActiveWebsites'
  | 'windowIds'
  | 'markWebsitesRemoved'
  | 'markAbandonedRuns'
  | 'readRows'
  | 'countRejected'
>;

/**
 * The bookkeeping half of a `Destination` over `sql`. `sql` is read on every call, so a
 * connector can hand out its session lazily (and fail when it is not open).
 */
export function sqlBookkeeping(sql: () => BookkeepingSql): Bookkeeping {
  return {
    async readState(workspace) {
      const s = sql();
      if (!(await s.tableExists(stateTable.name))) return [];
      return (await s.selectAll(stateTable))
        .filter((row) => storedWorkspace(row._workspace) === workspace)
        .map((row) => ({
          stream: String(row.stream),
          scope: String(row.scope),
          state: row.state,
          updated_at: String(row.updated_at),
          _workspace: workspace,
        }));
    },

    async deleteState(match) {
      const s = sql();
      if (!(await s.tableExists(stateTable.name))) return 0;
      const filters = (['stream', 'scope'] as const).filter((name) => match[name] !== undefined);
      const params = filters.map((name): SqlParam => ({ type: 'string', value: match[name]! }));
      const conditions = filters.map((name, i) => `${s.column(name)} = ${s.placeholder(i, params[i]!)}`);
      const workspace: SqlParam = { type: 'string', value: match.workspace };
      conditions.push(workspaceCondition(s.column(WORKSPACE_COLUMN.name), s.placeholder(params.length, workspace)));
      return s.change(`DELETE FROM ${s.table(stateTable.name)} WHERE ${conditions.join(' AND ')}`, [
        ...params,
        workspace,
      ]);
    },

    async listActiveWebsites() {
      const s = sql();
      if (!(await s.tableExists(REMOVABLE_TABLE.name))) return [];
      const [id, workspace] = [REMOVABLE_TABLE.id, WORKSPACE_COLUMN.name].map((name) => s.column(name));
      const rows = await s.select(
        `SELECT ${id} AS ${id}, ${workspace} AS ${workspace} FROM ${s.table(REMOVABLE_TABLE.name)} WHERE ${s.column(REMOVABLE_TABLE.removedAt)} IS NULL ORDER BY 1`,
        [],
      );
      // By position, whatever case the warehouse gave the names.
      return rows.map((row) => {
        const [rowId, rowWorkspace] = Object.values(row);
        return { id: String(rowId), workspace: storedWorkspace(rowWorkspace) };
      });
    },

    async windowIds(query) {
      const s = sql();
      if (!(await s.tableExists(query.table))) return [];
      const id = s.column(query.idColumn);
      const stamp = s.column(query.stampColumn);
      const params: SqlParam[] = [
        { type: 'string', value: query.websiteId },
        { type: 'timestamp', value: query.since },
        ...(query.until === undefined ? [] : [{ type: 'timestamp', value: query.until } as const]),
      ];
      const conditions = [
        `${s.column('website_id')} = ${s.placeholder(0, params[0]!)}`,
        `${stamp} >= ${s.placeholder(1, params[1]!)}`,
        ...(query.until === undefined ? [] : [`${stamp} <= ${s.placeholder(2, params[2]!)}`]),
      ];
      const rows = await s.select(
        `SELECT ${id} AS ${id} FROM ${s.table(query.table)} WHERE ${conditions.join(' AND ')}`,
        params,
      );
      // The one column, whatever case the warehouse gave its name.
      return rows.map((row) => String(Object.values(row)[0]));
    },

    async markWebsitesRemoved(ids, removedAt) {
      const s = sql();
      const removed = s.column(REMOVABLE_TABLE.removedAt);
      for (let start = 0; start < ids.length; start += IDS_PER_STATEMENT) {
        const at: SqlParam = { type: 'timestamp', value: removedAt };
        const chunk = ids.slice(start, start + IDS_PER_STATEMENT).map((value): SqlParam => ({ type: 'string', value }));
        const list = chunk.map((param, i) => s.placeholder(i + 1, param)).join(', ');
        // Only websites not yet marked: they keep their first removal time.
        await s.change(
          `UPDATE ${s.table(REMOVABLE_TABLE.name)} SET ${removed} = ${s.placeholder(0, at)} WHERE ${removed} IS NULL AND ${s.column(REMOVABLE_TABLE.id)} IN (${list})`,
          [at, ...chunk],
        );
      }
    },

    readRows: (table) => readRows(sql(), table),
    countRejected: (runIds) => countRejected(sql(), runIds),

    async markAbandonedRuns(currentRunId, workspace) {
      const s = sql();
      const status = s.column('status');
      const current: SqlParam = { type: 'string', value: currentRunId };
      const ofWorkspace: SqlParam = { type: 'string', value: workspace };
      // Only this workspace's: another workspace's run may be alive under its own lock.
      await s.change(
        `UPDATE ${s.table(runsTable.name)} SET ${status} = 'abandoned' WHERE ${status} = 'running' AND ${s.column('id')} <> ${s.placeholder(0, current)} AND ${workspaceCondition(s.column(WORKSPACE_COLUMN.name), s.placeholder(1, ofWorkspace))}`,
        [current, ofWorkspace],
      );
    },
  };
}

/** Every row of a bookkeeping table in logical form; none before the table exists. */
async function readRows(s: BookkeepingSql, table: TableSpec): Promise<Record<string, unknown>[]> {
  if (!(await s.tableExists(table.name))) return [];
  return s.selectAll(table);
}

/** `_aivis_rejected` rows last written by these runs, counted in the warehouse (rows hold `_raw`). */
async function countRejected(s: BookkeepingSql, runIds: readonly string[]): Promise<number> {
  if (runIds.length === 0 || !(await s.tableExists(rejectedTable.name))) return 0;
  let count = 0;
  for (let start = 0; start < runIds.length; start += IDS_PER_STATEMENT) {
    const chunk = runIds.slice(start, start + IDS_PER_STATEMENT).map((value): SqlParam => ({ type: 'string', value }));
    const list = chunk.map((param, i) => s.placeholder(i, param)).join(', ');
    const [row] = await s.select(
      `SELECT COUNT(*) AS n FROM ${s.table(rejectedTable.name)} WHERE ${s.column('_run_id')} IN (${list})`,
      chunk,
    );
    // The one column, whatever case and integer type the warehouse gave it.
    count += Number(Object.values(row ?? {})[0] ?? 0);
  }
  return count;
}
