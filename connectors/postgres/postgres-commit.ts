/**
 * One flush on Postgres (docs/destinations/postgres.md#how-rows-land): per part, `COPY` into a
 * temporary staging table, then the upsert into the target; every part and the state in one
 * transaction.
 */
import type { FlushResult, TableRows } from '../../src/destination/destination.ts';
import type { PostgresSession } from './postgres-client.ts';
import { copyIntoStaging, createStaging, upsertFromStaging } from './postgres-sql.ts';
import { csvField } from './postgres-types.ts';

/** Rows per chunk written to the COPY stream: large enough to amortise, small enough to stay flat. */
const COPY_CHUNK_ROWS = 500;

/**
 * Upserts `parts` in one transaction; returns rows written per table. `onPart` hears the table
 * each part writes, so a failure can name it.
 */
export async function commitParts(
  session: PostgresSession,
  schema: string,
  parts: readonly TableRows[],
  onPart: (table: string) => void,
): Promise<FlushResult> {
  const rowsWritten: Record<string, number> = {};
  if (parts.length === 0) return { rowsWritten };
  await session.transaction(async () => {
    for (const part of parts) {
      onPart(part.table.name);
      await session.query(createStaging(part.table));
      await session.copyFrom(copyIntoStaging(part.table), csvChunks(part));
      const { rowCount } = await session.query(upsertFromStaging(schema, part.table));
      rowsWritten[part.table.name] = rowCount;
    }
  });
  return { rowsWritten };
}

/** CSV text of a part's rows, a few hundred rows per chunk. */
function* csvChunks(part: TableRows): Generator<string> {
  const columns = part.table.columns;
  let chunk = '';
  for (let i = 0; i < part.rows.length; i++) {
    const row = part.rows[i]!;
    chunk += `${columns.map((c) => csvField(c.type, row[c.name])).join(',')}\n`;
    if ((i + 1) % COPY_CHUNK_ROWS === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}
