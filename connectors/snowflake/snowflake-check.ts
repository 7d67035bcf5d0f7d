/**
 * `aivis check` on Snowflake: proves the role can create and write a table in the configured
 * schema by doing it (a probe table, created, written, dropped), and turns Snowflake's
 * refusal into the GRANT that fixes it.
 */
import { DestinationError } from '../../src/errors.ts';
import { snowflakeCode, type SnowflakeClient } from './snowflake-client.ts';
import type { SnowflakeLocation } from './snowflake-config.ts';
import { ensureSchema, ident, schemaName, tableName } from './snowflake-sql.ts';

const PROBE_TABLE = '_aivis_check';

/** Snowflake's codes for "not allowed" and "does not exist or not authorized". */
const NOT_ALLOWED = '003001';
const NOT_FOUND = '002003';
const NO_WAREHOUSE = '000606';

export async function checkSnowflakeAccess(
  client: SnowflakeClient,
  at: SnowflakeLocation,
  warehouse: string,
): Promise<void> {
  // "role AIVIS_LOADER", or the user's default role when the config names none.
  const role = at.role ? `role ${at.role}` : "this user's default role";
  const grantee = at.role ? `ROLE ${at.role}` : 'ROLE <role>';
  const schema = `${at.database}.${at.schema}`;
  const step = async (work: () => Promise<unknown>, explain: (code: string | undefined) => string | undefined) => {
    try {
      await work();
    } catch (error) {
      const advice = explain(snowflakeCode(error));
      if (advice === undefined) throw error;
      throw new DestinationError(`${advice} (${(error as Error).message})`);
    }
  };
  const common = (code: string | undefined) =>
    code === NO_WAREHOUSE
      ? `warehouse ${warehouse} does not exist or ${role} cannot use it: GRANT USAGE ON WAREHOUSE ${warehouse} TO ${grantee}`
      : undefined;

  await step(
    () => ensureSchema(client, at),
    (code) =>
      code === NOT_ALLOWED
        ? `${role} lacks CREATE SCHEMA on database ${at.database} and schema ${schema} does not exist: create it, or GRANT CREATE SCHEMA ON DATABASE ${at.database} TO ${grantee}`
        : code === NOT_FOUND
          ? `database ${at.database} does not exist or ${role} cannot use it: GRANT USAGE ON DATABASE ${at.database} TO ${grantee}`
          : common(code),
  );
  const probe = tableName(at, PROBE_TABLE);
  await step(
    () => client.execute(`CREATE TABLE IF NOT EXISTS ${probe} (${ident('id')} VARCHAR)`),
    (code) =>
      code === NOT_ALLOWED
        ? `${role} lacks CREATE TABLE on schema ${schema}: GRANT CREATE TABLE ON SCHEMA ${schemaName(at)} TO ${grantee}`
        : code === NOT_FOUND
          ? `${role} cannot use schema ${schema}: GRANT USAGE ON SCHEMA ${schemaName(at)} TO ${grantee}`
          : common(code),
  );
  try {
    await step(
      () => client.execute(`INSERT INTO ${probe} (${ident('id')}) VALUES (?)`, ['check']),
      (code) =>
        code === NOT_ALLOWED
          ? `${role} cannot write tables in schema ${schema}: it needs ownership of the tables it creates there`
          : common(code),
    );
  } finally {
    await client.execute(`DROP TABLE IF EXISTS ${probe}`);
  }
}
