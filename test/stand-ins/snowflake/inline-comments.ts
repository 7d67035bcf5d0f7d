/**
 * Snowflake's CREATE TABLE takes each column's comment in its definition (`a TEXT COMMENT 's'`,
 * last, as Snowflake's syntax puts it) and the table's after the column list (`COMMENT = 's'`);
 * DuckDB takes neither, so the stand-in creates the table and then sets each comment with
 * `COMMENT ON`. A `COMMENT` anywhere else is left in place, for DuckDB to refuse.
 * With `IF NOT EXISTS` on a table that exists, Snowflake leaves the table as it is, its comments
 * too: the session runs the `COMMENT ON`s only when the CREATE made the table (create-table-comments.ts).
 */
import { splitSql } from './sql-segments.ts';

const CREATE_TABLE = /^(\s*CREATE\s+(?:OR\s+REPLACE\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?)(\S+?)\s*\(/;
const COLUMN_COMMENT = /^(\s*(\S+)[\s\S]*?)\s+COMMENT\s+(\u0001\d+\u0002)\s*$/;
const TABLE_COMMENT = /^\s*COMMENT\s*=\s*(\u0001\d+\u0002)\s*$/;

/** `sql` (folded by rewriteSql) as CREATE TABLE without comments, then one `COMMENT ON` each; else `[sql]`. */
export function inlineComments(sql: string): string[] {
  // Literals and quoted names become placeholders, so commas and parentheses in them do not count.
  const quoted: string[] = [];
  const code = splitSql(sql)
    .map((s) => (s.kind === 'code' ? s.text : `\u0001${quoted.push(s.text) - 1}\u0002`))
    .join('');
  const create = CREATE_TABLE.exec(code);
  if (!create) return [sql];
  const restore = (text: string) => text.replace(/\u0001(\d+)\u0002/g, (_, i: string) => quoted[Number(i)]!);
  const table = create[2]!;
  const definitions: string[] = [];
  let depth = 0;
  let start = create[0].length;
  let end = -1;
  for (let i = start; i < code.length && end < 0; i++) {
    const ch = code[i];
    if (ch === '(') depth++;
    else if (ch === ')' && depth-- === 0) end = i;
    if ((ch === ',' && depth === 0) || end >= 0) {
      definitions.push(code.slice(start, i));
      start = i + 1;
    }
  }
  if (end < 0) return [sql];
  const comments: string[] = [];
  const columns = definitions.map((definition) => {
    const commented = COLUMN_COMMENT.exec(definition);
    if (!commented) return definition;
    comments.push(`COMMENT ON COLUMN ${table}.${commented[2]} IS ${commented[3]}`);
    return commented[1]!;
  });
  const tail = code.slice(end + 1);
  const tableComment = TABLE_COMMENT.exec(tail);
  if (tableComment) comments.unshift(`COMMENT ON TABLE ${table} IS ${tableComment[1]}`);
  if (!comments.length) return [sql];
  const created = `${create[0]}${columns.join(',')})${tableComment ? '' : tail}`;
  return [created, ...comments].map(restore);
}
