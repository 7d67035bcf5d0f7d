/**
 * `TABLE(INFORMATION_SCHEMA.QUERY_HISTORY(RESULT_LIMIT => n))`, the table function that shows
 * the account's recent statements with their session's QUERY_TAG: before a statement that
 * reads it runs, the account's history (newest first, at most `n` rows, as Snowflake returns
 * it) is copied into a temp table of the session's DuckDB connection, which the statement
 * then reads instead. Columns as Snowflake names them, as many as tests read.
 */
import type { DuckDBConnection } from '@duckdb/node-api';

/** One row of QUERY_HISTORY, as much of it as tests read. */
export interface QueryHistoryEntry {
  readonly session: string;
  readonly queryText: string;
  readonly queryTag: string;
}

const FUNCTION =
  /\bTABLE\s*\(\s*(?:\w+\.)?INFORMATION_SCHEMA\.QUERY_HISTORY\s*\(\s*(?:RESULT_LIMIT\s*=>\s*(\d+))?\s*\)\s*\)/i;
const NAME = 'aivis_stand_in_query_history';
/** Snowflake's default RESULT_LIMIT. */
const DEFAULT_LIMIT = 100;

/** `sqlText` reading the copy of the history instead of the table function, once the copy is made; unchanged if it does not read it. */
export async function withQueryHistory(
  sqlText: string,
  connection: DuckDBConnection,
  history: readonly QueryHistoryEntry[],
): Promise<string> {
  const call = FUNCTION.exec(sqlText);
  if (!call) return sqlText;
  const limit = Number(call[1] ?? DEFAULT_LIMIT);
  await connection.run(
    `CREATE OR REPLACE TEMP TABLE ${NAME} (session_id VARCHAR, query_text VARCHAR, query_tag VARCHAR)`,
  );
  const appender = await connection.createAppender(NAME, 'main', 'temp');
  for (const entry of history.slice(-limit).reverse()) {
    appender.appendVarchar(entry.session);
    appender.appendVarchar(entry.queryText);
    appender.appendVarchar(entry.queryTag);
    appender.endRow();
  }
  appender.closeSync();
  return sqlText.replace(FUNCTION, `temp.main.${NAME}`);
}
