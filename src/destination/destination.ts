/**
 * The one interface every destination implements (docs/architecture.md#destinations). The engine only ever talks
 * to a destination through it; concrete connectors live in `connectors/<name>/` and are
 * created by the CLI's factory. It is narrow on purpose: lifecycle, schema, commit, lock and the
 * bookkeeping SQL role; what the engine asks of its tables (state, websites, runs, rejected rows)
 * are functions over that role in `queries/`, so a new query widens no connector.
 *
 * Life cycle: `open()` once, then any number of calls, then `close()` once.
 */
import type { EvolvedColumn, ExistingColumns } from './evolved-column.ts';
import type { BookkeepingSql } from './bookkeeping.ts';
import type { Row, TableSpec } from './table-spec.ts';
import type { ViewSpec } from './view-spec.ts';

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

/** Rows of one table within a flush. */
export interface TableRows {
  readonly table: TableSpec;
  readonly rows: readonly Row[];
}

export interface FlushResult {
  /** Rows upserted per table name. */
  readonly rowsWritten: Readonly<Record<string, number>>;
  /** Warehouse jobs issued (load jobs, DML statements), where the warehouse bills per job. */
  readonly jobs?: number;
  /** Bytes the warehouse reports as processed (billed), when it reports them. */
  readonly bytesProcessed?: number;
}

/** The command a destination serves: warehouses tag their jobs and sessions with it, so its cost can be found. */
export interface RunIdentity {
  readonly runId: string;
  readonly workspace: string;
  /** The CLI verb: sync, backfill, verify, ... */
  readonly command: string;
}

/** Who runs a sync; stored with the lock so a refused run can say who holds it. */
export interface LockOwner {
  readonly runId: string;
  readonly host: string;
  readonly pid: number;
  readonly startedAt: string;
  /** The workspace the run syncs: runs of different workspaces hold different locks. */
  readonly workspace: string;
}

/** What `aivis check` proves the configured identity may do to: the tables and views a sync writes. */
export interface CheckScope {
  readonly tables: readonly TableSpec[];
  readonly views: readonly ViewSpec[];
}

export interface DestinationLock {
  /** Releases the lock; safe to call twice. */
  release(): Promise<void>;
}

export interface Destination {
  /** `postgres`, `duckdb`, `bigquery`, `snowflake`, ... */
  readonly type: string;
  readonly capabilities: DestinationCapabilities;
  /**
   * Where the tables live as SQL names them: the database (Postgres database, DuckDB catalog,
   * BigQuery project, Snowflake database) and the schema (BigQuery: dataset). What
   * `aivis dbt-sources` writes as a source's `database` and `schema`.
   */
  readonly namespace: { readonly database: string; readonly schema: string };
  /** Where the rows go, for `check` and the run summary to print, when a path says it (DuckDB: `file <absolute path>`). */
  readonly location?: string;
  /**
   * Why the destination cannot hold a sync's rows yet, when what the config names does not exist
   * (DuckDB: `the DuckDB file <path> does not exist`): what `status` says instead of "nothing
   * synced", so a mistyped path is seen as one.
   */
  absent?(): string | undefined;
  /** What `check` and `sync` warn about in the destination's config (DuckDB: a file named like its schema). */
  configWarnings?(): string[];

  /** Connects (or opens the file). */
  open(): Promise<void>;

  /**
   * `aivis check`: proves the destination is reachable and the configured identity has every
   * privilege a sync of `scope` uses: create tables and views in the configured schema, and, on
   * those of `scope` (and the run lock's table) that exist, read, insert, update, delete and
   * alter them. Throws a `MissingPrivilegesError` listing every grant that is missing, or a
   * `DestinationError` whose message names what else is wrong (schema, network). Leaves
   * nothing behind that it did not find, but the schema.
   */
  check(scope: CheckScope): Promise<void>;

  /**
   * Creates the schema and every table that is missing, and adds columns a table lacks
   * (`ALTER TABLE ... ADD COLUMN`), then sets each table's and column's description where the
   * warehouse holds another (a metadata change, never a rewrite). Idempotent; never drops or
   * retypes anything.
   */
  ensureTables(tables: readonly TableSpec[]): Promise<void>;

  /**
   * The columns of those of `tables` that exist (others may come too), each with its logical
   * type, by table: what schema evolution builds on (docs/served-contract.md#schema-evolution). A column of a
   * type aivis never makes is left out.
   */
  columnTypes(tables: readonly TableSpec[]): Promise<ExistingColumns>;

  /**
   * Sets `columns` (just added to `table`) of every row from the row's `_raw`, to the value the
   * loader writes for a new row (docs/served-contract.md#values): one UPDATE.
   */
  fillFromRaw(table: TableSpec, columns: readonly EvolvedColumn[]): Promise<void>;

  /** The DDL `ensureTables` runs on an empty destination, for `aivis streams`. */
  describeDdl(tables: readonly TableSpec[]): string[];

  /**
   * Creates or replaces the views (their tables exist already) with their descriptions.
   * Idempotent. An object of a view's name that aivis did not create (a table, a view without
   * aivis's description) is never replaced: a `DestinationError` with exit 2 names it.
   */
  ensureViews(views: readonly ViewSpec[]): Promise<void>;

  /** The DDL `ensureViews` runs, for `aivis streams`. */
  describeViewDdl(views: readonly ViewSpec[]): string[];

  /**
   * Makes one flush durable: upserts each part's rows by primary key. The parts come as
   * `flushParts` makes them (one per table, one row per key, `_aivis_state` last), built by
   * the state store. Transactional destinations write them in one transaction; the others in
   * order, so state lands after the rows it describes.
   */
  commit(parts: readonly TableRows[]): Promise<FlushResult>;

  /**
   * The SQL role the domain queries (`src/destination/queries/`) run on: how this destination
   * names tables and columns, writes parameters, and runs a statement; its statements run
   * between `open()` and `close()`. Each query is written once over it, for every connector.
   */
  bookkeeping(): BookkeepingSql;

  /**
   * Takes the run lock for this destination schema and `owner.workspace`: runs of different
   * workspaces proceed side by side, a second run of the same workspace is refused. Throws `LockHeldError` naming the
   * holder when another live run has it. A crashed holder loses it (connection-bound lock
   * or an expired lease, depending on the destination).
   */
  acquireLock(owner: LockOwner): Promise<DestinationLock>;

  /** Closes connections; safe to call twice. */
  close(): Promise<void>;
}
