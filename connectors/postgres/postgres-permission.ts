/**
 * Postgres's "permission denied" (SQLSTATE 42501) turned into the one message every verb gives
 * (docs/architecture.md#cli): the object, the privilege the statement needed and the GRANT that
 * fixes it, for the user the config connects as; or, when only the owner may run the statement
 * (ALTER TABLE, COMMENT ON), the object's owner and how to change it (docs/troubleshooting.md#permission-denied).
 */
import { DestinationError, ExitCode } from '../../src/errors.ts';
import { redact } from '../../src/log/redact.ts';
import type { PostgresOptions } from './postgres-config.ts';

/** What node-postgres says: `permission denied for schema aivis`, `... for table websites`. */
const DENIED = /permission denied for (schema|table|view|relation|database|sequence) "?([^"\s]+)"?/;

/** What it says when only the owner may: `must be owner of table websites` (`relation` before Postgres 15). */
const NOT_OWNER = /must be owner of (schema|table|view|materialized view|relation|sequence) "?([^"\s]+)"?/;

/** The row privileges a statement uses, by its first word. */
const STATEMENT_PRIVILEGE: Readonly<Record<string, string>> = {
  SELECT: 'SELECT',
  INSERT: 'INSERT',
  UPDATE: 'UPDATE',
  DELETE: 'DELETE',
  COPY: 'INSERT',
  MERGE: 'INSERT, UPDATE',
};

export function isPermissionDenied(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '42501';
}

/** A `permissionError` (or the error it wraps) saying the statement needed the object's owner. */
export function isNotOwner(error: unknown): boolean {
  const pgError = error instanceof DestinationError ? error.cause : error;
  return isPermissionDenied(pgError) && NOT_OWNER.test((pgError as Error).message);
}

/**
 * @param sql the statement Postgres refused, whose kind says which privilege was missing
 * @param reading whether the command only reads (status, state show, query): its fix grants no write
 */
export function permissionError(
  error: unknown,
  sql: string,
  options: PostgresOptions,
  reading = ['SELECT', 'WITH'].includes(firstWord(sql)),
): DestinationError {
  const { schema, user, database } = options;
  const said = (error as Error).message;
  const grantee = sqlName(user);
  const owned = NOT_OWNER.exec(said);
  if (owned) {
    const [, saidKind = 'table', name = ''] = owned;
    const kind = saidKind === 'relation' ? 'table' : saidKind;
    const object = kind === 'schema' ? name : `${schema}.${name}`;
    return new DestinationError(
      redact(
        `permission denied: Postgres user "${user}" does not own ${kind} ${object} in database ${database}, and only its owner may change it; ` +
          `as the owner run: ALTER ${kind.toUpperCase()} ${object} OWNER TO ${grantee}; or grant the owning role to ${grantee}`,
      ),
      ExitCode.Failure,
      { cause: error },
    );
  }
  const [, kind = 'schema', name = schema] = DENIED.exec(said) ?? [];
  const readGrant = `GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${grantee}`;
  const fix = ((): { privilege: string; object: string; grant: string } => {
    switch (kind) {
      case 'database':
        return {
          privilege: 'CREATE',
          object: `database ${name}`,
          grant: `GRANT CREATE ON DATABASE ${name} TO ${grantee}; or create schema ${schema} for it`,
        };
      case 'schema':
        return {
          privilege: ['CREATE', 'ALTER'].includes(firstWord(sql)) ? 'CREATE' : 'USAGE',
          object: `schema ${name} in database ${database}`,
          grant: reading
            ? `GRANT USAGE ON SCHEMA ${name} TO ${grantee}; ${readGrant}`
            : `GRANT USAGE, CREATE ON SCHEMA ${name} TO ${grantee}`,
        };
      default: {
        const privilege = reading
          ? 'SELECT'
          : (STATEMENT_PRIVILEGE[firstWord(sql)] ?? 'SELECT, INSERT, UPDATE, DELETE');
        return {
          privilege,
          object: `table ${schema}.${name} in database ${database}`,
          grant: reading
            ? readGrant
            : `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${grantee}`,
        };
      }
    }
  })();
  return new DestinationError(
    redact(
      `permission denied: Postgres user "${user}" lacks ${fix.privilege} on ${fix.object}; grant it: ${fix.grant}`,
    ),
    ExitCode.Failure,
    { cause: error },
  );
}

function firstWord(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
}

/** A role, schema or table name as a statement takes it: bare when it is a plain lower-case identifier. */
export function sqlName(role: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(role) ? role : `"${role.replace(/"/g, '""')}"`;
}
