/**
 * The one naming rule of evolved columns (docs/served-contract.md#column-names), the same on
 * every destination so a model written against one reads another:
 * - a field whose name is lower-case letters, digits and single underscores, starting with a
 *   letter, at most 63 characters (Postgres's limit, the strictest of the four), and that is no
 *   column of the table already, keeps its name;
 * - any other name (upper case, which Snowflake would fold onto another; a leading `_`, the
 *   prefix of aivis's own columns such as `_raw` and `_workspace`; a `__`, the mark of a variant
 *   column; other characters; too long; taken) becomes its letters and digits lower-cased and
 *   joined by `_`, cut to fit, plus `_` and the first 8 hex digits of the SHA-256 of the exact
 *   field name: two fields that differ only by case or punctuation never share a column;
 * - no two fields of a table share a column: natural names are given first, then hashed ones,
 *   each name given taken from then on.
 * A variant column is `<column>__<type>`, its column part cut and hashed the same way when the
 * whole would pass 63 characters.
 */
import { createHash } from 'node:crypto';
import type { ColumnType } from '../destination/table-spec.ts';

/** Identifier length every destination takes (Postgres: 63 bytes; these names are ASCII). */
export const MAX_COLUMN_NAME = 63;
const NATURAL = /^[a-z](?:[a-z0-9]|_(?!_))*$/;
const HASH_DIGITS = 8;

const hashOf = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, HASH_DIGITS);

/** `text` in lower-case letters and digits joined by single `_`, starting with a letter. */
function simplified(text: string): string {
  const words = text
    .normalize('NFKD')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .join('_');
  return /^[a-z]/.test(words) ? words : `f_${words}`.replace(/_$/, '');
}

/** `base` cut so that `_<hash>` and `suffix` fit, then both appended. */
function hashed(base: string, of: string, suffix = ''): string {
  const room = MAX_COLUMN_NAME - 1 - HASH_DIGITS - suffix.length;
  return `${base.slice(0, room).replace(/_+$/, '')}_${hashOf(of)}${suffix}`;
}

/** Whether a field's name is a column name as it is (see above), when no other column has it. */
export function isNaturalName(field: string): boolean {
  return NATURAL.test(field) && field.length <= MAX_COLUMN_NAME && !field.endsWith('_');
}

/**
 * Whether a field's name can be named in a column's description and a JSON path on every
 * destination: no NUL, no lone surrogate (text no warehouse stores). A field that cannot is
 * left in `_raw`.
 */
export function isStorableName(field: string): boolean {
  return !/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(field);
}

/**
 * The column of a declared field that has none yet: its own name when natural and free, else
 * the hashed one; when that is taken too (a field named like another's hashed column), the
 * hash of the name with `#1`, `#2`, ... appended, the first that is free.
 * @param taken the table's columns and those other fields of this plan were given
 * @example evolvedColumnName('url', new Set(['id'])) // 'url'
 * @example evolvedColumnName('_raw', new Set(['_raw'])) // 'raw_<8 hex>'
 */
export function evolvedColumnName(field: string, taken: ReadonlySet<string>): string {
  if (isNaturalName(field) && !taken.has(field)) return field;
  const base = simplified(field);
  let name = hashed(base, field);
  for (let n = 1; taken.has(name); n++) name = hashed(base, `${field}#${n}`);
  return name;
}

/** The column for values of `type` beside `column`, which cannot hold them: `rank__string`. */
export function variantColumnName(column: string, type: ColumnType): string {
  const suffix = `__${type}`;
  return column.length + suffix.length <= MAX_COLUMN_NAME ? `${column}${suffix}` : hashed(column, column, suffix);
}
