/** What a destination's conformance wiring supplies to the shared suite (suite.ts) and its topics. */
import type { StoredComment } from '../../src/destination/descriptions.ts';
import type { Destination } from '../../src/destination/destination.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import type { LogicalRow } from './normalize.ts';

export interface ConformanceTarget {
  name: string;
  /**
   * A destination on a fresh, empty schema/dataset called `schema` (unique per test), not
   * yet opened: the suite opens and closes it. The locks topic calls `create` twice with one
   * name to get two destinations on the same schema.
   */
  create(schema: string): Promise<Destination>;
  /** All rows of `table`, in logical form (normalize.ts), ordered by primary key. Called while the destination is open. */
  readRows(destination: Destination, schema: string, table: TableSpec): Promise<LogicalRow[]>;
  /** The comment of every table, view and column of `schema`, as the warehouse's catalog holds them. */
  comments(schema: string): Promise<StoredComment[]>;
  cleanup?(schema: string): Promise<void>;
  /** Tests this target cannot run, each with the reason shown as the skip message. */
  skip?: Partial<Record<string, string>>;
  /**
   * How the destination stores text holding U+0000, when it cannot store it as is: maps a
   * written string to the stored one (applies inside JSON strings too). Absent: exact.
   */
  storedText?(written: string): string;
  /**
   * The float64 a read returns for one written, when the destination's driver reads fewer
   * digits than the destination stores (Snowflake's JSON results carry 15). Absent: exact.
   */
  readFloat?(written: number): number;
  /**
   * Whether the destination's JSON path can name an object key, so the fill of evolved columns
   * reads it (BigQuery's cannot name a key holding `"` or `\`). Absent: every key.
   */
  namesJsonKey?(key: string): boolean;
}
