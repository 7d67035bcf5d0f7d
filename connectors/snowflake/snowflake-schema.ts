/**
 * Creates the configured schema only when it is missing: a role that was given an existing
 * schema (USAGE + CREATE TABLE on it) need not hold CREATE SCHEMA on the database.
 */
import type { SnowflakeClient } from './snowflake-client.ts';
import type { SnowflakeLocation } from './snowflake-config.ts';
import { ident } from './snowflake-identifier.ts';
import { createSchemaSql } from './snowflake-sql.ts';

export async function ensureSchema(client: SnowflakeClient, at: SnowflakeLocation): Promise<void> {
  const [found] = await client.execute(
    `SELECT COUNT(*) AS N FROM ${ident(at.database)}.INFORMATION_SCHEMA.SCHEMATA WHERE CATALOG_NAME = ? AND SCHEMA_NAME = ?`,
    [at.database.toUpperCase(), at.schema.toUpperCase()],
  );
  if (Number(found?.N ?? 0) === 0) await client.execute(createSchemaSql(at));
}
