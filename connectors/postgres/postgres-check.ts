/**
 * `aivis check` on Postgres: reads from the catalog every privilege a sync uses and lists each
 * one the connecting user lacks, as the statement that grants it, all at once
 * (docs/destinations/postgres.md#privileges): CREATE on the database while the schema does not
 * exist, USAGE and CREATE on the schema, TEMPORARY on the database (staging tables), and on every
 * table of the check's scope that exists (the run lock's `_aivis_lock` too) SELECT, INSERT,
 * UPDATE and DELETE plus ownership, which ALTER TABLE (new columns) and CREATE OR REPLACE VIEW
 * require.
 */
import type { CheckScope } from '../../src/destination/destination.ts';
import { MissingPrivilegesError } from '../../src/errors.ts';
import type { PostgresSession } from './postgres-client.ts';
import type { PostgresOptions } from './postgres-config.ts';
import { sqlName } from './postgres-permission.ts';

/** The row privileges a sync uses on each of its tables: reads, COPY + upsert, state resets and lock rows. */
const TABLE_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const;

/** Parameter: schema name. NULL `usage` and `create` when the schema does not exist. */
const DATABASE_AND_SCHEMA = `SELECT has_database_privilege(current_database(), 'CREATE') AS create_schema,
  has_database_privilege(current_database(), 'TEMPORARY') AS temporary,
  (SELECT has_schema_privilege(oid, 'USAGE') FROM pg_namespace WHERE nspname = $1) AS usage,
  (SELECT has_schema_privilege(oid, 'CREATE') FROM pg_namespace WHERE nspname = $1) AS "create"`;

/** Parameters: schema name, relation names. One row per relation of those names that exists. */
const RELATIONS = `SELECT c.relname AS name, CASE WHEN c.relkind IN ('v', 'm') THEN 'view' ELSE 'table' END AS kind,
  pg_has_role(c.relowner, 'USAGE') AS owned,
  ${TABLE_PRIVILEGES.map((p) => `has_table_privilege(c.oid, '${p}') AS "${p}"`).join(', ')}
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relname = ANY($2::text[]) AND c.relkind IN ('r', 'p', 'v', 'm')
ORDER BY c.relname`;

interface DatabaseAndSchema {
  create_schema: boolean;
  temporary: boolean;
  usage: boolean | null;
  create: boolean | null;
}

type Relation = { name: string; kind: 'table' | 'view'; owned: boolean } & Record<
  (typeof TABLE_PRIVILEGES)[number],
  boolean
>;

/** What the user lacks for a sync: the statements that grant it, and the tables it may not alter (not their owner). */
export interface MissingGrants {
  readonly fixes: string[];
  readonly unalterable: string[];
}

/**
 * The statements that grant what the user lacks for a sync of `scope` plus the lock table, in
 * the order to run them (none when it lacks nothing), and the tables it does not own.
 */
export async function missingGrants(
  session: PostgresSession,
  options: PostgresOptions,
  scope: CheckScope,
  lockTable: string,
): Promise<MissingGrants> {
  const { schema, user, database } = options;
  const grantee = sqlName(user);
  const fixes: string[] = [];
  const unalterable: string[] = [];
  const [found] = (await session.query<DatabaseAndSchema>(DATABASE_AND_SCHEMA, [schema])).rows;
  if (!found) return { fixes, unalterable };
  if (found.usage === null) {
    if (!found.create_schema) fixes.push(`GRANT CREATE ON DATABASE ${sqlName(database)} TO ${grantee};`);
  } else {
    const onSchema = [found.usage ? '' : 'USAGE', found.create ? '' : 'CREATE'].filter(Boolean);
    if (onSchema.length) fixes.push(`GRANT ${onSchema.join(', ')} ON SCHEMA ${sqlName(schema)} TO ${grantee};`);
  }
  if (!found.temporary) fixes.push(`GRANT TEMPORARY ON DATABASE ${sqlName(database)} TO ${grantee};`);

  const names = [...scope.tables.map((t) => t.name), lockTable, ...scope.views.map((v) => v.name)];
  const relations = (await session.query<Relation>(RELATIONS, [schema, names])).rows;
  for (const relation of relations) {
    const object = `${sqlName(schema)}.${sqlName(relation.name)}`;
    const lacking = relation.kind === 'table' ? TABLE_PRIVILEGES.filter((p) => !relation[p]) : [];
    if (lacking.length) fixes.push(`GRANT ${lacking.join(', ')} ON TABLE ${object} TO ${grantee};`);
    if (relation.owned) continue;
    fixes.push(`ALTER ${relation.kind.toUpperCase()} ${object} OWNER TO ${grantee};`);
    if (relation.kind === 'table') unalterable.push(relation.name);
  }
  return { fixes, unalterable };
}

/** The error `check` throws for `fixes`, naming who lacks them and who may run them. */
export function missingPrivilegesError(
  options: PostgresOptions,
  { fixes, unalterable }: MissingGrants,
): MissingPrivilegesError {
  const { user, database, schema } = options;
  return new MissingPrivilegesError(
    `Postgres user "${user}" lacks privileges that sync uses in database ${database}, schema ${schema}; as each object's owner or a superuser, run ${fixes.length === 1 ? 'this statement' : `these ${fixes.length} statements`}`,
    fixes,
    unalterable,
  );
}
