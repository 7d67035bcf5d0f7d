/**
 * `aivis check` on Snowflake: proves the role has every privilege a sync uses by using it (a
 * probe table, created, written, a probe view over it, both dropped; the description of each
 * existing table and view set, which only their owner may) and lists each refusal as the GRANT
 * that fixes it, all at once; every run's table and view set-up explains its refusals the same
 * way, one at a time, so each verb names the same GRANT.
 */
import type { CheckScope } from '../../src/destination/destination.ts';
import { DestinationError, ExitCode, MissingPrivilegesError } from '../../src/errors.ts';
import { snowflakeCode, type SnowflakeClient } from './snowflake-client.ts';
import type { SnowflakeLocation } from './snowflake-config.ts';
import {
  commentSql,
  ensureSchema,
  existingObjectsSql,
  ident,
  schemaName,
  storedName,
  tableName,
} from './snowflake-sql.ts';

const PROBE_TABLE = '_aivis_check';
const PROBE_VIEW = '_aivis_check_view';

/** Snowflake's codes for "not allowed" and "does not exist or not authorized". */
const NOT_ALLOWED = '003001';
const NOT_FOUND = '002003';
const NO_WAREHOUSE = '000606';

/** Who is refused, as the messages name them. */
function names(at: SnowflakeLocation) {
  // "role AIVIS_LOADER", or the user's default role when the config names none.
  return {
    role: at.role ? `role ${at.role}` : "this user's default role",
    grantee: at.role ? `ROLE ${at.role}` : 'ROLE <role>',
    schema: `${at.database}.${at.schema}`,
  };
}

/**
 * Runs `work`; a refusal `explain` knows becomes a DestinationError naming the role, the
 * privilege, the object and the GRANT, Snowflake's own words after it.
 */
async function explained<T>(
  work: () => Promise<T>,
  explain: (code: string | undefined) => string | undefined,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const advice = explain(snowflakeCode(error));
    if (advice === undefined) throw error;
    throw new DestinationError(`${advice} (${(error as Error).message})`, ExitCode.Failure, { cause: error });
  }
}

function warehouseRefusal(at: SnowflakeLocation, warehouse: string, code: string | undefined): string | undefined {
  const { role, grantee } = names(at);
  return code === NO_WAREHOUSE
    ? `warehouse ${warehouse} does not exist or ${role} cannot use it: GRANT USAGE ON WAREHOUSE ${warehouse} TO ${grantee}`
    : undefined;
}

/** Creating the schema if missing, as `check` and every run's table set-up do. */
export function ensureSchemaExplained(client: SnowflakeClient, at: SnowflakeLocation, warehouse: string) {
  const { role, grantee, schema } = names(at);
  return explained(
    () => ensureSchema(client, at),
    (code) =>
      code === NOT_ALLOWED
        ? `${role} lacks CREATE SCHEMA on database ${at.database} and schema ${schema} does not exist: create it, or GRANT CREATE SCHEMA ON DATABASE ${at.database} TO ${grantee}`
        : code === NOT_FOUND
          ? `database ${at.database} does not exist or ${role} cannot use it: GRANT USAGE ON DATABASE ${at.database} TO ${grantee}`
          : warehouseRefusal(at, warehouse, code),
  );
}

/**
 * Creating an object in the schema; CREATE TABLE and CREATE VIEW are separate privileges on it
 * (docs/destinations/snowflake.md#setup).
 */
function createExplained<T>(
  privilege: 'TABLE' | 'VIEW',
  work: () => Promise<T>,
  at: SnowflakeLocation,
  warehouse: string,
): Promise<T> {
  const { role, grantee, schema } = names(at);
  return explained(work, (code) =>
    code === NOT_ALLOWED
      ? `${role} lacks CREATE ${privilege} on schema ${schema}: GRANT CREATE ${privilege} ON SCHEMA ${schemaName(at)} TO ${grantee}`
      : code === NOT_FOUND
        ? `${role} cannot use schema ${schema}: GRANT USAGE ON SCHEMA ${schemaName(at)} TO ${grantee}`
        : warehouseRefusal(at, warehouse, code),
  );
}

/** Creating a table in the schema, as `check` and every run's table set-up do. */
export function createTableExplained<T>(work: () => Promise<T>, at: SnowflakeLocation, warehouse: string): Promise<T> {
  return createExplained('TABLE', work, at, warehouse);
}

/** Creating (or replacing) a view in the schema, as `check` and every run's view set-up do. */
export function createViewExplained<T>(work: () => Promise<T>, at: SnowflakeLocation, warehouse: string): Promise<T> {
  return createExplained('VIEW', work, at, warehouse);
}

/** The advice when Snowflake refuses a change to an existing table or view: only its owner may alter it or comment on it. */
function notOwner(at: SnowflakeLocation, object: ExistingObject): string {
  const { role, grantee } = names(at);
  const target = tableName(at, object.name);
  return `${role} does not own ${object.kind} ${target}, and only its owner may alter it or set its comments: as its owner, GRANT OWNERSHIP ON ${object.kind.toUpperCase()} ${target} TO ${grantee} COPY CURRENT GRANTS`;
}

interface ExistingObject {
  readonly kind: 'table' | 'view';
  readonly name: string;
}

/** Changing a table that exists (ADD COLUMN), as every run's table set-up does. */
export function alterExplained<T>(
  work: () => Promise<T>,
  at: SnowflakeLocation,
  warehouse: string,
  object: ExistingObject,
): Promise<T> {
  return explained(work, (code) =>
    code === NOT_ALLOWED ? notOwner(at, object) : warehouseRefusal(at, warehouse, code),
  );
}

/**
 * Setting a table's or view's comment. Refused for want of ownership, it is `warn`ed, not
 * thrown: descriptions are not data, and the rows the role may write should still load.
 */
export async function commentExplained(
  work: () => Promise<unknown>,
  at: SnowflakeLocation,
  warehouse: string,
  object: ExistingObject,
  warn: (advice: string) => void,
): Promise<void> {
  await alterExplained(work, at, warehouse, object).catch((error: unknown) => {
    if (!(error instanceof DestinationError && snowflakeCode(error.cause) === NOT_ALLOWED)) throw error;
    warn(error.message);
  });
}

/**
 * `aivis check`: every privilege a sync of `scope` uses, each refusal noted as the GRANT that
 * fixes it and all listed at once. CREATE TABLE and CREATE VIEW on the schema are proven with a
 * probe table and view (dropped after); a sync alters the tables and views of `scope` that exist
 * (new columns, descriptions), which only their owner may, so each gets its comment set again.
 */
export async function checkSnowflakeAccess(
  client: SnowflakeClient,
  at: SnowflakeLocation,
  warehouse: string,
  scope: CheckScope,
): Promise<void> {
  const { role, grantee, schema } = names(at);
  await ensureSchemaExplained(client, at, warehouse);
  const fixes = new Set<string>();
  const unalterable: string[] = [];
  /** Runs `work`; a refusal `fix` knows is noted, and the step counts as not done. */
  const step = async (work: () => Promise<unknown>, fix: (code: string | undefined) => string | undefined) => {
    try {
      await work();
      return true;
    } catch (error) {
      const statement =
        fix(snowflakeCode(error)) ??
        (snowflakeCode(error) === NO_WAREHOUSE ? `GRANT USAGE ON WAREHOUSE ${warehouse} TO ${grantee};` : undefined);
      if (statement === undefined) throw error;
      fixes.add(statement);
      return false;
    }
  };
  const create = (privilege: 'TABLE' | 'VIEW') => (code: string | undefined) =>
    code === NOT_ALLOWED ? `GRANT CREATE ${privilege} ON SCHEMA ${schemaName(at)} TO ${grantee};` : undefined;
  const probe = tableName(at, PROBE_TABLE);
  const probeView = tableName(at, PROBE_VIEW);
  try {
    const created = await step(
      () => client.execute(`CREATE TABLE IF NOT EXISTS ${probe} (${ident('id')} VARCHAR)`),
      create('TABLE'),
    );
    // A warehouse refusal is a grant like the others; a table the role made but may not write
    // (a managed-access schema) has no one GRANT that fixes it, so it stops the check.
    if (created)
      await explained(
        () =>
          step(
            () => client.execute(`INSERT INTO ${probe} (${ident('id')}) VALUES (?)`, ['check']),
            () => undefined,
          ),
        (code) =>
          code === NOT_ALLOWED
            ? `${role} cannot write tables in schema ${schema}: it needs ownership of the tables it creates there`
            : undefined,
      );
    // Every sync replaces its views; CREATE VIEW is a grant of its own, so prove it here too.
    const source = created ? `SELECT ${ident('id')} FROM ${probe}` : `SELECT 'check' AS ${ident('id')}`;
    await step(() => client.execute(`CREATE OR REPLACE VIEW ${probeView} AS ${source}`), create('VIEW'));

    const stored = await client.execute(existingObjectsSql(at), [storedName(at.database), storedName(at.schema)]);
    const comments = new Map(stored.map((row) => [String(row.TABLE_NAME), row.COMMENT as string | null]));
    const objects = [
      ...scope.tables.map((t) => ({ spec: t, view: false })),
      ...scope.views.map((v) => ({ spec: v, view: true })),
    ];
    for (const { spec, view } of objects) {
      const name = storedName(spec.name);
      if (!comments.has(name)) continue;
      const kind = view ? 'VIEW' : 'TABLE';
      // Its comment set again as it is: an owner's change that changes nothing.
      const comment = comments.get(name);
      const altered = await step(
        () =>
          client.execute(
            typeof comment === 'string'
              ? commentSql(at, { table: spec.name, view, text: comment })
              : `ALTER ${kind} ${tableName(at, spec.name)} UNSET COMMENT`,
          ),
        (code) =>
          code === NOT_ALLOWED
            ? `GRANT OWNERSHIP ON ${kind} ${tableName(at, spec.name)} TO ${grantee} COPY CURRENT GRANTS;`
            : undefined,
      );
      if (!altered && !view) unalterable.push(spec.name);
    }
  } finally {
    await client.execute(`DROP VIEW IF EXISTS ${probeView}`);
    await client.execute(`DROP TABLE IF EXISTS ${probe}`);
  }
  if (fixes.size)
    throw new MissingPrivilegesError(
      `${role} lacks privileges that sync uses in schema ${schema}; as the objects' owner (or a role with MANAGE GRANTS) run ${fixes.size === 1 ? 'this statement' : `these ${fixes.size} statements`}`,
      [...fixes],
      unalterable,
    );
}
