/**
 * One flush on Snowflake: rows bound into a session-temporary staging table (all text), merged
 * into the target by primary key, the state rows riding along, all in one transaction.
 */
import type { FlushResult, TableRows } from '../../src/destination/destination.ts';
import type { Row, TableSpec } from '../../src/destination/table-spec.ts';
import type { SnowflakeClient } from './snowflake-client.ts';
import { ARRAY_BINDING_THRESHOLD, type SnowflakeLocation } from './snowflake-config.ts';
import * as sql from './snowflake-sql.ts';
import { toStagedText } from './snowflake-types.ts';

/** The staging of one session, whose current schema is set once (its staging tables live there). */
export interface SnowflakeStaging {
  /**
   * Makes each staging table afresh and empty before the transaction (DDL would commit an open
   * Snowflake transaction). DDL runs in cloud services, so emptying a stage this way keeps a
   * DELETE per table off the warehouse (docs/destinations/snowflake.md#cost).
   */
  prepare(c: SnowflakeClient, tables: readonly TableSpec[]): Promise<void>;
  /** A new session has its own current schema. */
  forget(): void;
  /** Upserts prepared `parts` in one transaction; no `jobs`: Snowflake bills warehouse time, not statements. */
  commit(c: SnowflakeClient, parts: readonly TableRows[]): Promise<FlushResult>;
}

export function snowflakeStaging(at: SnowflakeLocation): SnowflakeStaging {
  let inSchema = false;
  return {
    async prepare(c, tables) {
      if (!inSchema) await c.execute(sql.useSchemaSql(at));
      inSchema = true;
      for (const table of tables) await c.execute(sql.createStageSql(table));
    },
    forget: () => {
      inSchema = false;
    },
    async commit(c, parts) {
      const rowsWritten: Record<string, number> = {};
      await c.transaction(async () => {
        for (const part of parts) rowsWritten[part.table.name] = await upsert(c, at, part.table, part.rows);
      });
      return { rowsWritten };
    },
  };
}

async function upsert(
  c: SnowflakeClient,
  at: SnowflakeLocation,
  table: TableSpec,
  rows: readonly Row[],
): Promise<number> {
  const perBatch = Math.max(1, Math.floor(ARRAY_BINDING_THRESHOLD / table.columns.length));
  for (let start = 0; start < rows.length; start += perBatch) {
    const batch = rows
      .slice(start, start + perBatch)
      .map((row) => table.columns.map((col) => toStagedText(col.type, row[col.name])));
    await c.execute(sql.insertStageSql(table), batch);
  }
  const [counts] = await c.execute(sql.mergeSql(at, table));
  return Number(counts?.['number of rows inserted'] ?? 0) + Number(counts?.['number of rows updated'] ?? 0);
}
