/**
 * The comments a CREATE TABLE carries inline, set after it (inline-comments.ts), except when
 * Snowflake would not: a CREATE TABLE IF NOT EXISTS that finds its table leaves it as it is,
 * comments too. DuckDB's IF NOT EXISTS does not say whether it made the table; the catalog does:
 * DDL runs one statement at a time (the account's catalog queue), so a table that appears while
 * the CREATE runs is the one it made.
 */
import type { DuckDBConnection } from '@duckdb/node-api';

const IF_NOT_EXISTS = /^\s*CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS\b/;

/** Runs `create`, the folded statement, by `run`; then its `comments`, unless it found its table. */
export async function withTableComments<T>(
  connection: DuckDBConnection,
  create: string,
  comments: readonly string[],
  run: () => Promise<T>,
): Promise<T> {
  if (!comments.length) return run();
  const before = IF_NOT_EXISTS.test(create) ? await tableOids(connection) : undefined;
  const result = await run();
  const made = !before || (await tableOids(connection)).some((oid) => !before.includes(oid));
  if (made) for (const comment of comments) await connection.run(comment);
  return result;
}

async function tableOids(connection: DuckDBConnection): Promise<string[]> {
  const reader = await connection.runAndReadAll('SELECT table_oid::VARCHAR FROM duckdb_tables()');
  return reader.getRows().map(([oid]) => String(oid));
}
