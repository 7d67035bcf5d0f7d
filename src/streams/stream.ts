/**
 * What a stream is: where its records come from and how a record becomes rows. Streams know
 * nothing of pagination, state or destinations; the sync engine composes them with the API
 * client and the flush buffer, and dispatches on `kind`, how a stream is read
 * (docs/architecture.md#adding-a-stream):
 * - `listing`: one list read whole at the start of every run (state scope `*`);
 * - `snapshot`: one GET per website, the latest state of something (no saved state);
 * - `feed`: a list read incrementally per website with `updated_since` and cursors.
 *
 * Each kind is declared through its function (`feedStream({...})`, ...), which infers the
 * record, table and options types, so `toRow` must return every column of its table
 * (`RowOf`), and `scans` sees the stream's own options.
 */
import type { z } from 'zod';
import type { ApiClient } from '../client/api-client.ts';
import type { TableRows } from '../destination/destination.ts';
import type { CellValue, RowOf, RowOfColumns, TableSpec } from '../destination/table-spec.ts';
import type { LOAD_COLUMNS } from '../tables/common-columns.ts';
import type { RecordMapping } from './record-mapping.ts';

export interface RowContext {
  /** The website the request was made for (the path's `website_id`). */
  readonly websiteId: string;
  readonly runId: string;
  readonly syncedAt: string;
  /** The workspace the run reads (docs/architecture.md#many-workspaces). */
  readonly workspace: string;
  /** The columns schema evolution added to the tables (docs/served-contract.md#schema-evolution); none when absent. */
  readonly evolution?: EvolvedCells;
}

/** The cells of the columns schema evolution added to a table, read from a row's record (`src/evolution/`). */
export interface EvolvedCells {
  cells(table: TableSpec, raw: unknown): Readonly<Record<string, CellValue>>;
}

/** A record that passed its schema but cannot be loaded; it goes to `_aivis_rejected`. */
export class RecordRejection extends Error {}

interface StreamBase<Name extends string, Options extends z.ZodType> {
  readonly name: Name;
  /** Its settings under `streams.<name>` in the config; their defaults apply when the config names no streams. */
  readonly options: Options;
  /** How each table it writes maps its records: what schema evolution fills from `_raw` (`RecordMapping`). */
  readonly mappings: readonly RecordMapping[];
}

/** The workspace's list of something, read whole every run (it has no `updated_since`). */
export interface ListingStream<Name extends string, Item, Table extends TableSpec, Options extends z.ZodType>
  extends StreamBase<Name, Options> {
  readonly kind: 'listing';
  readonly table: Table;
  readonly path: string;
  readonly recordSchema: z.ZodType<Item>;
  toRow(record: Item, raw: unknown, context: Omit<RowContext, 'websiteId'>): RowOf<Table>;
}

/** The latest state of one website, one GET per website; its body's `data` and `meta` become rows of several tables. */
export interface SnapshotStream<Name extends string, Data, Meta, Options extends z.ZodType>
  extends StreamBase<Name, Options> {
  readonly kind: 'snapshot';
  readonly tables: readonly TableSpec[];
  readonly dataSchema: z.ZodType<Data>;
  readonly metaSchema: z.ZodType<Meta>;
  path(websiteId: string): string;
  query(options: z.output<Options>): Readonly<Record<string, string | undefined>>;
  /** Throws `RecordRejection` for a snapshot that is valid JSON-wise but unusable. */
  toRows(data: Data, meta: Meta, raw: { data: unknown }, context: RowContext): TableRows[];
}

/** One scan of a feed for one website: its own query filters and its own saved state. */
export interface FeedScan {
  /** Suffix of the state scope after the website id ('' for an unfiltered scan). */
  readonly scopeSuffix: string;
  readonly query: Readonly<Record<string, string>>;
}

/** Largest page the API serves: fewest requests per row. */
export const PAGE_LIMIT = '500';

/**
 * Scans a feed is read in instead of its own once the API refuses those in a known way (the
 * citations stream: one scan per analysis when the API requires `analysis_id`). The engine
 * switches for the rest of the run at the first refusal.
 */
export interface ScanFallback {
  /** Whether a scan's failure is the refusal this fallback answers. */
  applies(error: unknown): boolean;
  /** The scans to read instead for one website (they may need a request of their own). */
  scans(client: ApiClient, websiteId: string): Promise<FeedScan[]>;
  /** Logged once per run, when the switch happens. */
  readonly notice: string;
}

/** A list endpoint read incrementally per website with `updated_since` and cursors. */
export interface FeedStream<Name extends string, Item, Table extends TableSpec, Options extends z.ZodType>
  extends StreamBase<Name, Options> {
  readonly kind: 'feed';
  readonly table: Table;
  readonly recordSchema: z.ZodType<Item>;
  path(websiteId: string): string;
  /** The scans this stream needs per website under these options. */
  scans(options: z.output<Options>): FeedScan[];
  /** Scans to read instead once the API refuses these (`ScanFallback`). */
  readonly fallback?: ScanFallback;
  /**
   * The timestamp column `aivis verify` places a row in its window by: the publication stamp
   * `updated_since` reads the feed by (docs/architecture.md#verify).
   */
  readonly windowColumn: keyof RowOf<Table> & string;
  /** Throws `RecordRejection` for a record that is valid JSON-wise but unusable. */
  toRow(record: Item, raw: unknown, context: RowContext): RowOf<Table>;
}

/** Any feed, as the sync engine handles it (every feed alike). */
// biome-ignore lint/suspicious/noExplicitAny: each feed has its own record and options types; the engine treats them alike
export type AnyFeedStream = FeedStream<string, any, TableSpec, z.ZodType>;

/** Any stream of any kind, as code that reads what every stream declares handles it (the registry, schema evolution). */
export type AnyStream =
  // biome-ignore lint/suspicious/noExplicitAny: each stream has its own record and options types
  | ListingStream<string, any, TableSpec, z.ZodType>
  // biome-ignore lint/suspicious/noExplicitAny: each stream has its own record and options types
  | SnapshotStream<string, any, any, z.ZodType>
  | AnyFeedStream;

/** A stream read per website: a snapshot or a feed, of any record type. */
export type AnyWebsiteStream = Exclude<AnyStream, { kind: 'listing' }>;

/** The tables a stream writes: a snapshot's several, a listing's or feed's one. */
export function streamTables(stream: AnyStream): readonly TableSpec[] {
  return stream.kind === 'snapshot' ? stream.tables : [stream.table];
}

export function listingStream<const Name extends string, Item, Table extends TableSpec, Options extends z.ZodType>(
  stream: ListingStream<Name, Item, Table, Options>,
): ListingStream<Name, Item, Table, Options> {
  return stream;
}

export function snapshotStream<const Name extends string, Data, Meta, Options extends z.ZodType>(
  stream: SnapshotStream<Name, Data, Meta, Options>,
): SnapshotStream<Name, Data, Meta, Options> {
  return stream;
}

export function feedStream<const Name extends string, Item, Table extends TableSpec, Options extends z.ZodType>(
  stream: FeedStream<Name, Item, Table, Options>,
): FeedStream<Name, Item, Table, Options> {
  return stream;
}

/** The rows of one table, checked against its spec. */
export function tableRows<Table extends TableSpec>(table: Table, rows: readonly RowOf<Table>[]): TableRows {
  return { table, rows };
}

/**
 * The columns every data row of `table` carries (docs/architecture.md#tables): `_raw` is the
 * record as the API sent it, and the columns schema evolution added are read from it
 * (docs/served-contract.md#schema-evolution).
 */
export function loadColumns(
  table: TableSpec,
  raw: unknown,
  context: Omit<RowContext, 'websiteId'>,
): RowOfColumns<typeof LOAD_COLUMNS> & Readonly<Record<string, CellValue>> {
  return {
    ...context.evolution?.cells(table, raw),
    _synced_at: context.syncedAt,
    _run_id: context.runId,
    _raw: JSON.stringify(raw),
    _workspace: context.workspace,
  };
}

/** JSON text of a value, for `json` columns. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** The website a record names must be the website it was requested for. */
export function requireSameWebsite(recordWebsiteId: string, context: RowContext): void {
  if (recordWebsiteId !== context.websiteId) {
    throw new RecordRejection(
      `website_id: ${recordWebsiteId} does not match the requested website ${context.websiteId}`,
    );
  }
}

/** The default scan of a feed: no filter besides the frontier. */
export const UNFILTERED_SCAN: readonly FeedScan[] = [{ scopeSuffix: '', query: {} }];
