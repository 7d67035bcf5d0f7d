/**
 * Reading Postgres with a user's statement (`aivis query`; src/destination/read-only-query.ts).
 * Postgres judges the statement itself, before anything runs: it goes through the extended
 * protocol (a pg-cursor portal), which takes one statement only, inside a `READ ONLY`
 * transaction, which refuses any write (a data-modifying CTE, `SELECT INTO`, a function that
 * writes). The cursor pages the rows, so nothing holds the whole result.
 */
import type Cursor from 'pg-cursor';
import {
  notReadOnly,
  severalStatements,
  type QueryCell,
  type QueryRole,
} from '../../src/destination/read-only-query.ts';
import { quoteIdentifier } from '../../src/destination/sql-identifier.ts';
import { ConfigError, DestinationError, ExitCode } from '../../src/errors.ts';
import type { Logger } from '../../src/log/logger.ts';
import { redact } from '../../src/log/redact.ts';
import { connectPostgres, errorCode } from './postgres-client.ts';
import { type PostgresConfig, type PostgresOptions, postgresOptions } from './postgres-config.ts';
import { isPermissionDenied, permissionError, sqlName } from './postgres-permission.ts';
import { POSTGRES_DIALECT } from './postgres-dialect.ts';

/** Type OIDs whose text becomes another kind of cell; every other type stays as Postgres prints it. */
const INT8 = 20;
const SMALL_INTEGERS = new Set([21, 23, 26]); // int2, int4, oid
const FLOATS = new Set([700, 701]);
const BOOL = 16;
const JSON_TYPES = new Set([114, 3802]); // json, jsonb
/** Arrays of text (`text[]`, `varchar[]`, `char[]`), of integers and of booleans: JSON arrays of their elements. */
const ARRAY_ELEMENTS: ReadonlyMap<number, number> = new Map([
  [1009, 25],
  [1015, 25],
  [1014, 25],
  [1005, 23],
  [1007, 23],
  [1016, INT8],
  [1000, BOOL],
]);

/** SQLSTATE of a table the statement names that Postgres cannot find. */
const UNDEFINED_TABLE = '42P01';

/** `cannot execute DELETE in a read-only transaction` (SQLSTATE 25006): the kind is the word after "execute". */
const READ_ONLY_REFUSAL = /cannot execute (.+?) in a read-only transaction/;

export async function openPostgresQuery(config: PostgresConfig, deps: { logger: Logger }): Promise<QueryRole> {
  const [{ default: CursorClass }, { default: pg }] = await Promise.all([import('pg-cursor'), import('pg')]);
  // node-postgres's own reading of Postgres's array text (`{a,"b c",NULL}`), elements as text.
  const arrayOfText = pg.types.getTypeParser(1009 as never) as (text: string) => (string | null)[];
  const cell = (type: number, text: string | null): QueryCell => {
    if (text === null) return null;
    const element = ARRAY_ELEMENTS.get(type);
    if (element === undefined) return scalar(type, text);
    return arrayOfText(text).map((item) => (item === null ? null : scalar(element, item)));
  };
  const options = postgresOptions(config);
  const session = await connectPostgres(options, deps.logger);
  let cursor: Cursor | undefined;
  return {
    engine: 'Postgres',
    dialect: POSTGRES_DIALECT,
    // Postgres reads a statement only when it is sent; `run` sends it where Postgres refuses
    // several statements and any write before either runs.
    inspect: async () => ({ several: false, kind: 'SELECT', reads: true }),
    async run(statement, pageRows) {
      // Each statement in a transaction of its own: a role that ran one before (import-prompts
      // reads a source twice) ends that one, failed or not, so a refusal never poisons the next.
      await cursor?.close().catch(() => undefined);
      cursor = undefined;
      await session.query('ROLLBACK');
      // The configured schema exists but the user may not use it: its tables are missing from the search path.
      const { rows: usage } = await session.query<{ usage: boolean }>(
        "SELECT has_schema_privilege(oid, 'USAGE') AS usage FROM pg_namespace WHERE nspname = $1",
        [options.schema],
      );
      const outOfSight = usage[0]?.usage === false;
      await session.query('BEGIN TRANSACTION READ ONLY');
      // Unqualified names resolve in the configured schema first, as in the docs' examples.
      await session.query(`SET LOCAL search_path TO ${quoteIdentifier(options.schema)}, public`);
      const opened = session.submit(
        new CursorClass(statement.sql, [], {
          rowMode: 'array',
          types: { getTypeParser: () => (text: string) => text },
        }),
      );
      cursor = opened;
      const refused = (error: unknown): Error => {
        const code = errorCode(error);
        const message = (error as Error).message;
        if (code === '42601' && /multiple commands/.test(message)) return severalStatements(statement.caller);
        if (code === '25006') return notReadOnly(statement.caller, refusedKind(message));
        // Whatever it says, a statement `query` runs only reads (a READ ONLY transaction).
        if (isPermissionDenied(error)) return permissionError(error, statement.sql, options, true);
        if (code === UNDEFINED_TABLE && outOfSight) return schemaUsageError(options, error);
        // Class 42: the statement's own fault (a syntax error, an unknown table or column).
        if (code?.startsWith('42')) return new ConfigError(redact(`Postgres cannot run the statement: ${message}`));
        return new DestinationError(redact(`Postgres failed the statement: ${message}`));
      };
      const read = () =>
        new Promise<{ rows: (string | null)[][]; types: number[]; names: string[] }>((resolve, reject) =>
          opened.read(pageRows, (error, rows, result) => {
            if (error) return reject(refused(error));
            const { fields } = result;
            resolve({ rows, types: fields.map((f) => f.dataTypeID), names: fields.map((f) => f.name) });
          }),
        );
      const first = await read();
      async function* pages() {
        let page = first;
        while (page.rows.length > 0) {
          yield page.rows.map((row) => row.map((text, i) => cell(page.types[i]!, text)));
          if (page.rows.length < pageRows) return;
          page = await read();
        }
      }
      return { columns: first.names, pages: pages() };
    },
    async close() {
      await cursor?.close().catch(() => undefined);
      cursor = undefined;
      await session.end();
    },
  };
}

/** A user without USAGE on the configured schema sees none of its tables: say so, and the GRANT that fixes it. */
function schemaUsageError(options: PostgresOptions, cause: unknown): DestinationError {
  const { schema, user, database } = options;
  const grantee = sqlName(user);
  return new DestinationError(
    redact(
      `permission denied: Postgres user "${user}" lacks USAGE on schema ${schema} in database ${database}, so its tables are out of sight; ` +
        `grant it: GRANT USAGE ON SCHEMA ${schema} TO ${grantee}; GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${grantee}`,
    ),
    ExitCode.Failure,
    { cause },
  );
}

/**
 * What Postgres refused in the read-only transaction: the command it names (`DELETE` when a
 * function deletes). A query with a data-modifying WITH is named by its top command, `SELECT`.
 */
function refusedKind(message: string): string {
  const command = READ_ONLY_REFUSAL.exec(message)?.[1] ?? 'writing';
  return command === 'SELECT' ? 'data-modifying WITH' : command;
}

function scalar(type: number, text: string): QueryCell {
  if (type === INT8) return BigInt(text);
  if (SMALL_INTEGERS.has(type)) return Number(text);
  if (FLOATS.has(type)) return Number.isFinite(Number(text)) ? Number(text) : text;
  if (type === BOOL) return text === 't';
  if (JSON_TYPES.has(type)) return JSON.parse(text) as QueryCell;
  return text;
}
