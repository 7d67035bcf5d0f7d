/**
 * What the COMMENT of a column whose field changed type says (docs/tables.md#type-changes): from
 * when its values move to the variant column, and that the views show both as one. The date is
 * the served contract's: `_aivis_contracts.first_seen_at` of the first document declaring the new
 * type, which a plan (a pure function of the document in force) cannot know itself.
 */
import type { ColumnType } from '../destination/table-spec.ts';

/** The note appended to the description of a column of type `held` whose values of `type` land in `variant`. */
export function movedToVariant(held: ColumnType, variant: string, type: ColumnType): string {
  return `Since the served contract declared this field ${type} (from that document's \`_aivis_contracts.first_seen_at\` on), new values are in \`${variant}\` and this column holds only those a ${held} keeps (NULL otherwise); the views show both as one column.`;
}
