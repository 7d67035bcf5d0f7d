/**
 * How a table's rows map the records of the stream that writes it, as schema evolution needs to
 * know it (docs/served-contract.md#what-counts-as-new): where the record sits inside the row's
 * `_raw`, the fields the stream already maps (each to the column of its name, or flattened or
 * split: `metrics`, `counts`, `providers`, `meta`, ...), and the objects whose keys are columns.
 * A declared field outside `mapped` is new, and `src/evolution/` gives it a column. Every stream
 * declares one for each table it writes (docs/architecture.md#adding-a-stream).
 */
import type { TableSpec } from '../destination/table-spec.ts';

/** An object of the record whose keys are columns of the table (`metrics`, `counts`): the keys the contract gives a column. */
export type KeyedObjects = Readonly<Record<string, readonly string[]>>;

export interface RecordMapping {
  readonly table: TableSpec;
  /** The array field of the stream's record whose items are this table's records (`providers`), if any. */
  readonly items?: string;
  /** Where the record is in the row's `_raw`: `['data']` for a snapshot body, `[]` for a record kept whole. */
  readonly rawPath: readonly string[];
  /** Fields the stream maps already; those of `keyed` included. */
  readonly mapped: readonly string[];
  readonly keyed: KeyedObjects;
  /**
   * The keyed object whose keys `metric_definition_versions` versions (`metrics`): a key the
   * contract adds is NULL on rows published before it existed, and its column says so.
   */
  readonly versioned?: string;
}

/** The fields a feed of evidence keys and stamps its rows by (`mentions`, `citations`). */
export const FEED_KEY_FIELDS = ['website_id', 'analysis_id', 'observed_at', 'available_at', 'provider'] as const;

/** The fields a snapshot and a history point share. */
export const SNAPSHOT_FIELDS = ['website_id', 'analysis_id', 'as_of', 'available_at', 'metrics', 'counts'] as const;
