/**
 * `aivis check` on BigQuery: proves every permission a sync uses in the dataset by using it on a
 * scratch table (create, read its metadata, add a column, load a row, query it, drop it) and
 * lists each one BigQuery refuses, at once, with the role that grants it
 * (docs/destinations/bigquery.md#prerequisites). A refused step does not stop the others: a
 * table that could not be created still leaves the job permission to prove with `SELECT 1`.
 */
import { randomUUID } from 'node:crypto';
import type { ColumnSpec } from '../../src/destination/table-spec.ts';
import { DestinationError, MissingPrivilegesError } from '../../src/errors.ts';
import { type BigqueryClient, missingPermission, permissionAdvice } from './bigquery-client.ts';
import { quoteTable, type TableRef } from './bigquery-sql.ts';
import { ndjsonLine, targetField } from './bigquery-types.ts';

/** How long a scratch table a refused drop leaves behind lives. */
const SCRATCH_TTL_MS = 3_600_000;

const COLUMNS: ColumnSpec[] = [{ name: 'ok', type: 'boolean', nullable: false, description: '' }];
/** The column a sync adds when the contract gains a field (a metadata update). */
const ADDED: ColumnSpec = { name: 'added', type: 'string', nullable: true, description: 'check' };

/**
 * @param tables the tables of the check's scope: when adding a column is refused, those that
 *   exist are named as tables schema evolution may not alter
 */
export async function checkBigqueryPermissions(
  client: BigqueryClient,
  ref: (table: string) => TableRef,
  now: () => Date,
  tables: readonly string[],
): Promise<void> {
  const fixes = new Set<string>();
  /** Runs a step; a refused permission is noted and the step counts as not done. */
  const step = async (work: () => Promise<unknown>): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch (error) {
      const missing = missingPermission(error instanceof DestinationError ? error.cause : error);
      if (!missing) throw error;
      fixes.add(permissionAdvice(missing, client.dataset));
      return false;
    }
  };
  const scratch = `_aivis_check_${randomUUID().replaceAll('-', '')}`;
  const fields = COLUMNS.map(targetField);
  const created = await step(() =>
    client.createTable(scratch, { fields, expiresAt: now().getTime() + SCRATCH_TTL_MS }),
  );
  let alters = true;
  if (created) {
    await step(() => client.tableMetadata(scratch));
    alters = await step(() => client.patchTable(scratch, { fields: [...fields, targetField(ADDED)] }));
    await step(() => client.load(scratch, () => [ndjsonLine(COLUMNS, { ok: true })]));
    await step(async () => {
      const { rows } = await client.query(`SELECT COUNT(*) AS n FROM ${quoteTable(ref(scratch))}`);
      if (rows[0]?.n !== 1)
        throw new DestinationError(
          `BigQuery check: wrote 1 row into ${client.dataset}.${scratch} but read back ${String(rows[0]?.n)}`,
        );
    });
    await step(() => client.dropTable(scratch));
  } else await step(() => client.query('SELECT 1 AS n'));
  if (fixes.size)
    throw new MissingPrivilegesError(
      `the BigQuery identity lacks permissions that sync uses in dataset ${client.project}:${client.dataset}; grant ${fixes.size === 1 ? 'it' : `these ${fixes.size}`} (on the dataset, or on the project where named)`,
      [...fixes],
      alters ? [] : await existing(client, tables),
    );
}

/** Those of `tables` that exist (a table whose metadata cannot be read counts as not there: its grant is listed already). */
async function existing(client: BigqueryClient, tables: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of tables) if (await client.tableMetadata(table).catch(() => undefined)) found.push(table);
  return found;
}
