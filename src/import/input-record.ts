/** One item of the input, or the reason its line or row could not become one. */
export interface InputRecord {
  /**
   * 1-based line of the file where the item starts (a quoted CSV field may span lines), or
   * position of the row in a table or query source.
   */
  readonly line: number;
  /** How errors name a table or query row: `row 3 (client_id "p2")`; its fields are then columns. */
  readonly row?: string;
  /** The item as read: an object for the import schema to check. */
  readonly item?: Record<string, unknown>;
  /** Set when the line is not an item at all (bad JSON, wrong field count, a value of the wrong kind). */
  readonly problem?: { field: string; issue: string };
}
