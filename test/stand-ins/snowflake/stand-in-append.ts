/**
 * A fast path for array-bound `INSERT INTO t (every column, in order) VALUES (?, ...)`: the
 * rows go through DuckDB's appender (about 20 times faster than multi-row VALUES), with
 * DuckDB's casts and errors; the caller makes it all-or-nothing. Anything else returns false
 * and runs as SQL.
 */
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { splitSql } from './sql-rewrite.ts';

const INSERT = /^\s*INSERT\s+INTO\s+(\S+)\s*\(([^()]*)\)\s*VALUES\s*\(\s*\?(?:\s*,\s*\?)*\s*\)\s*;?\s*$/;

/** `"A"` -> `A`, `B` -> `B` (the SQL is already folded). */
const unquote = (name: string) =>
  name
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .replaceAll('""', '"');

export async function appendRows(
  connection: DuckDBConnection,
  sql: string,
  rows: readonly DuckDBValue[][],
): Promise<boolean> {
  const match = INSERT.exec(sql);
  if (!match || splitSql(sql).some((s) => s.kind === 'literal')) return false;
  const parts = splitSql(match[1]!)
    .flatMap((s) => (s.kind === 'identifier' ? [s.text] : s.text.split('.').filter(Boolean)))
    .map(unquote);
  const [catalog, schema, table] =
    parts.length === 3 ? parts : parts.length === 1 ? ['temp', 'main', parts[0]] : [undefined, undefined, undefined];
  if (!table) return false;
  const columns = (
    await connection.runAndReadAll(
      'SELECT column_name FROM duckdb_columns() WHERE database_name = ? AND schema_name = ? AND table_name = ? ORDER BY column_index',
      [catalog!, schema!, table],
    )
  )
    .getRows()
    .map((r) => String(r[0]));
  const listed = match[2]!.split(',').map(unquote);
  if (columns.length === 0 || columns.join('\u0001') !== listed.join('\u0001')) return false;
  const appender = await connection.createAppender(table, schema!, catalog!);
  try {
    for (const row of rows) {
      for (const value of row) {
        if (value === null) appender.appendNull();
        else appender.appendVarchar(String(value));
      }
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  return true;
}
