/** One item of the input file, or the reason its line could not become one. */
export interface InputRecord {
  /** 1-based line of the file where the item starts (a quoted CSV field may span lines). */
  readonly line: number;
  /** The item as read: an object for the import schema to check. */
  readonly item?: Record<string, unknown>;
  /** Set when the line is not an item at all (bad JSON, wrong field count). */
  readonly problem?: { field: string; issue: string };
}
