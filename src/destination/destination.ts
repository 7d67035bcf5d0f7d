/**
 * The one interface every destination implements (design §10). The engine only ever talks
 * to a destination through it; concrete connectors live in `connectors/<name>/` and are
 * created by the CLI's factory.
 *
 * Life cycle: `open()` once, then any number of calls, then `close()` once.
 */
import type { Row, TableSpec } from './table-spec.ts';

export interface DestinationCapabilities {
  /**
   * Rows and state of one flush commit atomically. When false the connector writes rows
   * first, then state, so state never runs ahead of the data it describes.
   */
  readonly transactional: boolean;
  /** Upper bound on rows the engine buffers before it flushes (memory stays flat). */
  readonly maxRowsPerFlush: number;
  /** Upper bound on seconds between flushes while rows are buffered (a kill loses little). */
  readonly maxSecondsPerFlush: number;
}

/** Saved position of one stream in one scope (design §4). Stored and sent back verbatim. */
export interface StreamState {
  /** `scan_upper_bound` of the last completed scan: the next scan's `updated_since`. */
  readonly frontier: string | null;
  /** Cursor of the next page of an unfinished scan; null between scans. */
  readonly cursor: string | null;
  /** `scan_upper_bound` of the unfinished scan; becomes the frontier when the scan completes. */
  readonly pending_upper_bound: string | null;
}

export interface StateEntry {
  readonly stream: string;
  /** Website id, or `*` for workspace-wide streams. */
  readonly scope: string;
  readonly state: StreamState;
  /** ISO-8601 UTC. */
  readonly updatedAt: string;
}

/** Rows of one table within a flush. Rows may repeat a primary key: the last one wins. */
export interface TableRows {
  readonly table: TableSpec;
  readonly rows: readonly Row[];
}

/** One unit of durability: rows of any number of tables plus the state describing them. */
export interface Flush {
  readonly tables: readonly TableRows[];
  readonly state: readonly StateEntry[];
}

export interface FlushResult {
  /** Rows upserted per table name (after in-batch deduplication). */
  readonly rowsWritten: Readonly<Record<string, number>>;
  /** Warehouse jobs issued (load jobs, DML statements), where the warehouse bills per job. */
  readonly jobs?: number;
  /** Bytes the warehouse reports as processed (billed), when it reports them. */
  readonly bytesProcessed?: number;
}

/** Who runs a sync; stored with the lock so a refused run can say who holds it. */
export interface LockOwner {
  readonly runId: string;
  readonly host: string;
  readonly pid: number;
  readonly startedAt: string;
}

export interface DestinationLock {
  /** Releases the lock; safe to call twice. */
  release(): Promise<void>;
}

export interface Destination {
  /** `postgres`, `duckdb`, `bigquery`, `snowflake`, ... */
  readonly type: string;
  readonly capabilities: DestinationCapabilities;

  /** Connects (or opens the file). */
  open(): Promise<void>;

  /**
   * `aivis check`: proves the destination is reachable and the configured identity can
   * create and write tables in the configured schema. Throws a `DestinationError` whose
   * message names what is missing (permission, schema, network).
   */
  check(): Promise<void>;

  /**
   * Creates the schema and every table that is missing, and adds columns a table lacks
   * (`ALTER TABLE ... ADD COLUMN`). Idempotent; never drops or retypes anything.
   */
  ensureTables(tables: readonly TableSpec[]): Promise<void>;

  /** The DDL `ensureTables` runs on an empty destination, for `aivis streams`. */
  describeDdl(tables: readonly TableSpec[]): string[];

  /**
   * Makes one flush durable: upserts each table's rows by primary key (duplicates inside
   * the flush collapse to the last row) and saves the state entries. Transactional
   * destinations do both in one transaction; the others write rows, then state.
   */
  commit(flush: Flush): Promise<FlushResult>;

  /** Every committed state entry. */
  readState(): Promise<StateEntry[]>;

  /** Deletes state entries matching the filter (all when empty); returns how many. */
  deleteState(match: { stream?: string; scope?: string }): Promise<number>;

  /**
   * Ids of websites whose `_removed_at` is NULL. The engine compares them with a complete
   * listing and applies the mass-removal guard before it writes anything, so a key moved to
   * another workspace can neither wipe nor pollute the warehouse.
   */
  listActiveWebsiteIds(): Promise<string[]>;

  /** Sets `_removed_at` on these websites (only where it is NULL). */
  markWebsitesRemoved(ids: readonly string[], removedAt: string): Promise<void>;

  /**
   * Marks `_aivis_runs` rows still `running`, other than `currentRunId`, as `abandoned`: called
   * while holding the run lock, so no other run is alive and those rows belong to runs that
   * were killed before they could record their end. `finished_at` stays NULL (unknown).
   */
  markAbandonedRuns(currentRunId: string): Promise<void>;

  /**
   * Takes the run lock for this destination schema. Throws `LockHeldError` naming the
   * holder when another live run has it. A crashed holder loses it (connection-bound lock
   * or an expired lease, depending on the destination).
   */
  acquireLock(owner: LockOwner): Promise<DestinationLock>;

  /** Closes connections; safe to call twice. */
  close(): Promise<void>;
}
