/**
 * One query in a fresh DuckDB session opened on a database file, as `duckdb FILE` opens it: what
 * a user sees after aivis has closed the file (tests of the CLI read its output this way).
 */
import { DuckDBInstance } from '@duckdb/node-api';

export async function queryDuckDbFile(file: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
