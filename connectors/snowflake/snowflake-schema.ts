/**
 * Snowflake's tables and views: created or changed where the catalog lacks them, with their
 * descriptions as comments (each refusal explained as the GRANT that fixes it,
 * snowflake-check.ts), the logical types of the columns a table has, and the DDL `aivis streams`
 * prints.
 */
import { columnTypesOf } from '../../src/destination/column-types.ts';
import { type Description, descriptionsOf, staleDescriptions } from '../../src/destination/descriptions.ts';
import type { ExistingColumns } from '../../src/destination/evolved-column.ts';
import { serialByKey } from '../../src/destination/serial-by-key.ts';
import type { TableSpec } from '../../src/destination/table-spec.ts';
import { assertOwnView, storedViewDescription, type ViewSpec } from '../../src/destination/view-spec.ts';
import type { Logger } from '../../src/log/logger.ts';
import {
  alterExplained,
  commentExplained,
  createTableExplained,
  createViewExplained,
  ensureSchemaExplained,
} from './snowflake-check.ts';
import type { SnowflakeClient } from './snowflake-client.ts';
import type { SnowflakeLocation } from './snowflake-config.ts';
import * as sql from './snowflake-sql.ts';
import { CATALOG_TYPES } from './snowflake-types.ts';

/** Where the schema lives and who is told what could not be set. */
export interface SnowflakeSchema {
  readonly client: SnowflakeClient;
  readonly at: SnowflakeLocation;
  readonly account: string;
  readonly warehouse: string;
  readonly logger: Logger;
}

/** The database and schema as the catalog stores them (upper case), the binds of catalog queries. */
const where = (at: SnowflakeLocation) => [sql.storedName(at.database), sql.storedName(at.schema)];

function nullableText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** Sets the comments the catalog does not hold yet. */
async function describe(s: SnowflakeSchema, wanted: readonly Description[]): Promise<void> {
  const rows = await s.client.execute(sql.existingCommentsSql(s.at), [...where(s.at), ...where(s.at)]);
  const stored = rows.map((row) => ({
    table_name: String(row.TABLE_NAME),
    column_name: nullableText(row.COLUMN_NAME),
    comment: nullableText(row.COMMENT),
  }));
  for (const description of staleDescriptions(wanted, stored))
    await commentExplained(
      () => s.client.execute(sql.commentSql(s.at, description)),
      s.at,
      s.warehouse,
      { kind: description.view ? 'view' : 'table', name: description.table },
      (advice) => s.logger.warn('description not set', { error: advice }),
    );
}

/** Creates the schema and the tables that are missing, adds the columns a table lacks, sets descriptions. */
export async function ensureSnowflakeTables(s: SnowflakeSchema, tables: readonly TableSpec[]): Promise<void> {
  const { client: c, at } = s;
  await ensureSchemaExplained(c, at, s.warehouse);
  const existing = new Map<string, Set<string>>();
  for (const row of await c.execute(sql.existingColumnsSql(at), where(at))) {
    const name = String(row.TABLE_NAME);
    if (!existing.has(name)) existing.set(name, new Set());
    existing.get(name)!.add(String(row.COLUMN_NAME));
  }
  for (const table of tables) {
    const columns = existing.get(table.name.toUpperCase());
    if (!columns) {
      await createTableExplained(() => c.execute(sql.createTableSql(at, table)), at, s.warehouse);
      continue;
    }
    for (const column of table.columns) {
      if (columns.has(column.name.toUpperCase())) continue;
      await alterExplained(() => c.execute(sql.addColumnSql(at, table, column)), at, s.warehouse, {
        kind: 'table',
        name: table.name,
      });
    }
  }
  await describe(s, descriptionsOf(tables, false));
}

/** View changes per account and schema, one at a time in this process (see `ensureSnowflakeViews`). */
const oneViewChangeAtATime = serialByKey();

/** Creates or replaces `views` that are not current, then sets their comments. */
export async function ensureSnowflakeViews(s: SnowflakeSchema, views: readonly ViewSpec[]): Promise<void> {
  if (!views.length) return;
  const { client: c, at } = s;
  // One schema's views change one workspace at a time in this process: between another
  // run's CREATE VIEW and its COMMENT, the view would look like one aivis did not make.
  await oneViewChangeAtATime(`${s.account}/${sql.schemaName(at)}`, async () => {
    const objects = new Map(
      (await c.execute(sql.existingObjectsSql(at), where(at))).map((row) => [
        String(row.TABLE_NAME),
        {
          kind: row.TABLE_TYPE === 'VIEW' ? ('view' as const) : ('table' as const),
          comment: nullableText(row.COMMENT),
        },
      ]),
    );
    for (const view of views) assertOwnView(view, objects.get(view.name.toUpperCase()), sql.tableName(at, view.name));
    const wanted: Description[] = [];
    for (const view of views) {
      const stored = storedViewDescription(view, view.query(sql.snowflakeViewDialect(at)));
      wanted.push(...descriptionsOf([view], true).map((d) => (d.column === undefined ? { ...d, text: stored } : d)));
      // Current already: replacing it would cost every column's comment again.
      if (objects.get(view.name.toUpperCase())?.comment !== stored)
        await createViewExplained(() => c.execute(sql.createViewSql(at, view)), at, s.warehouse);
    }
    await describe(s, wanted);
  });
}

/** The logical types of the schema's columns. */
export async function snowflakeColumnTypes(c: SnowflakeClient, at: SnowflakeLocation): Promise<ExistingColumns> {
  // Names come back as Snowflake stores them (upper case); aivis names every column in lower case.
  const rows = (await c.execute(sql.existingColumnsSql(at), where(at))).map((row) => ({
    table_name: String(row.TABLE_NAME).toLowerCase(),
    column_name: String(row.COLUMN_NAME).toLowerCase(),
    data_type: String(row.DATA_TYPE),
  }));
  return columnTypesOf(rows, CATALOG_TYPES);
}

/** The DDL `ensureSnowflakeTables` runs on an empty schema (comments included), for `aivis streams`. */
export function snowflakeDdl(at: SnowflakeLocation, tables: readonly TableSpec[]): string[] {
  return [sql.createSchemaSql(at), ...tables.map((t) => sql.createTableSql(at, t))];
}

/** The DDL `ensureSnowflakeViews` runs, for `aivis streams`. */
export function snowflakeViewDdl(at: SnowflakeLocation, views: readonly ViewSpec[]): string[] {
  return views.flatMap((v) => [
    sql.createViewSql(at, v),
    ...descriptionsOf([v], true).map((d) => sql.commentSql(at, d)),
  ]);
}
