/**
 * One flush on DuckDB: per part, the appender into a fresh temporary staging table, then the
 * upsert into the target; every part and the state in one transaction.
 */
import type { FlushResult, TableRows } from '../../src/destination/destination.ts';
import type { DuckdbSession } from './duckdb-client.ts';
import type { DuckdbOptions } from './duckdb-config.ts';
import { createStaging, dropStaging, stagingName, tableName, upsertFromStaging } from './duckdb-sql.ts';
import { appendCell } from './duckdb-types.ts';

/**
 * Upserts `parts` in one transaction; returns rows written per table. `onPart` hears the table
 * each part writes, so a failure can name it. Staging goes through the appender: measured on
 * 5,000 rows of 8 columns it took 15-70 ms against 0.9-1.7 s for 500-row prepared INSERTs.
 */
export async function commitParts(
  session: DuckdbSession,
  options: DuckdbOptions,
  parts: readonly TableRows[],
  onPart: (table: string) => void,
): Promise<FlushResult> {
  if (parts.length === 0) return { rowsWritten: {} };
  const rowsWritten: Record<string, number> = {};
  await session.transaction(async () => {
    for (const { table, rows } of parts) {
      onPart(table.name);
      await session.run(createStaging(table));
      await session.append(stagingName(table), (appender) => {
        for (const row of rows) {
          for (const c of table.columns) appendCell(appender, c.type, row[c.name]);
          appender.endRow();
        }
      });
      rowsWritten[table.name] = await session.run(upsertFromStaging(tableName(options, table.name), table));
      await session.run(dropStaging(table));
    }
  });
  return { rowsWritten };
}
