/**
 * A table, view or query of the configured destination as import items
 * (docs/prompt-import.md#table-and-query-sources), one more input source beside CSV and JSONL.
 * Every statement aivis runs for it passes the one read-only gate of `aivis query`
 * (`assertReadOnlyStatement`) and reads through the destination's own query role, paged, so a
 * million rows never sit in memory. Rows come in a stable order (by `client_id`, else by
 * `prompt_text`), so positions are the same from one pass to the next, and equal `client_id`s
 * are neighbours (checked without remembering them all).
 */
import { createHash } from 'node:crypto';
import {
  assertReadOnlyStatement,
  type QueryCell,
  type QueryRole,
  type ReadOnlyStatement,
} from '../destination/read-only-query.ts';
import { AivisError, ConfigError, LockHeldError } from '../errors.ts';
import { CSV_COLUMNS } from './csv-items.ts';
import type { InputRecord } from './input-record.ts';

export type WarehouseSource = { readonly table: string } | { readonly query: string };

/** Rows read per page: a page is all a pass holds at a time. */
const PAGE_ROWS = 1000;

/** How `prompt_imports.input_file` and the report name the source: `table:<name>`, `query:<sha256>`. */
export function sourceLabel(source: WarehouseSource): string {
  if ('table' in source) return `table:${source.table}`;
  return `query:${createHash('sha256').update(source.query).digest('hex')}`;
}

/** The rows of a warehouse source, read again on every pass. */
export interface WarehouseInput {
  /** Whether rows are ordered by `client_id` (equal ones neighbours). */
  readonly orderedByClientId: boolean;
  items(): AsyncGenerator<InputRecord>;
}

/** A plain identifier, or one in double quotes; up to `database.schema.table`. */
const NAME_PART = /^(?:[A-Za-z_][A-Za-z0-9_$]*|"[^"]+")$/;

/**
 * The table name as the engine's SQL writes it: plain parts as given (the engine folds their
 * case as it does in any statement), quoted parts kept; an unqualified name in the configured
 * schema where the engine would not look there (BigQuery).
 */
function tableReference(role: QueryRole, name: string): string {
  // A string in single quotes is a file in DuckDB's FROM (and a string anywhere else): the
  // source is the warehouse's, never a file. A double-quoted name is a name; DuckDB, which would
  // read a file so named when no table is, refuses that in the closed session (readsFile).
  if (name.replace(/"[^"]*"/g, '').includes("'")) {
    throw new ConfigError(
      `--from-table ${name}: a quoted string names a file, and --from-table reads a table or view of the warehouse, never a file; give table, schema.table or database.schema.table`,
    );
  }
  const parts = name.split(/\.(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  if (parts.length > 3 || !parts.every((part) => NAME_PART.test(part))) {
    throw new ConfigError(
      `--from-table ${name}: not a table name; give table, schema.table or database.schema.table (a part with other characters in double quotes)`,
    );
  }
  const bare = (part: string) => (part.startsWith('"') ? part.slice(1, -1) : part);
  if (parts.length === 1 && role.qualify) return role.qualify(bare(parts[0]!));
  return parts.map((part) => (part.startsWith('"') ? role.dialect.exactName(bare(part)) : part)).join('.');
}

/** The text of `--from-query` as a subquery: trailing semicolons and blanks dropped. */
function subquery(sql: string): string {
  return sql.replace(/[\s;]+$/, '');
}

/**
 * Opens the source: gates the user's statement, reads its columns (no rows), and checks them
 * against the CSV columns. Throws a `ConfigError` naming what is wrong before any request.
 */
export async function openWarehouseInput(role: QueryRole, source: WarehouseSource): Promise<WarehouseInput> {
  const caller = 'table' in source ? `--from-table ${source.table}` : '--from-query';
  let base: string;
  if ('table' in source) base = `SELECT * FROM ${tableReference(role, source.table)}`;
  else {
    await assertReadOnlyStatement(source.query, role, caller);
    base = subquery(source.query);
  }
  // On lines of its own, so a trailing `-- comment` in the user's text cannot swallow the `)`.
  const wrapped = (tail: string) => `SELECT * FROM (\n${base}\n) AS aivis_rows ${tail}`;
  const columnsOf = async (sql: string) => {
    const probe = await role.run(await assertReadOnlyStatement(sql, role, caller), PAGE_ROWS);
    for await (const _ of probe.pages);
    return probe.columns;
  };
  const columns = await readable(caller, () =>
    columnsOf(wrapped('WHERE 1 = 0')).catch(async (error: unknown) => {
      // A statement that cannot be a subquery: the engine's refusal of the statement itself
      // says why (several statements, in Postgres, which judges them only when run).
      if ('query' in source && error instanceof ConfigError) await columnsOf(source.query);
      throw error;
    }),
  );
  const fields = columnFields(caller, columns);
  const clientId = fields.indexOf('client_id');
  const orderBy = columns[clientId >= 0 ? clientId : fields.indexOf('prompt_text')]!;
  const statement = await assertReadOnlyStatement(wrapped(`ORDER BY ${role.dialect.exactName(orderBy)}`), role, caller);
  return {
    orderedByClientId: clientId >= 0,
    items: () => rowItems(caller, role, statement, fields),
  };
}

/** Runs `work`; what the destination refuses about the source (no such table, no SELECT privilege) is exit 2 naming it. */
async function readable<T>(caller: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // The gate's own refusals already name the caller.
    if (!(error instanceof AivisError) || error instanceof LockHeldError || error.message.startsWith(caller))
      throw error;
    const said = error.message.split('\n')[0];
    if (error instanceof ConfigError || /permission denied|access denied|not authorized/i.test(said ?? ''))
      throw new ConfigError(`${caller}: the destination cannot read it: ${said}; nothing was sent`, { cause: error });
    throw error;
  }
}

/** Each result column's item field, matched case-insensitively; unknown, repeated or missing ones are refused. */
function columnFields(caller: string, columns: readonly string[]): string[] {
  const problems: string[] = [];
  const fields = columns.map((column) => {
    const field = CSV_COLUMNS.find((name) => name === column.toLowerCase());
    if (!field) problems.push(`unknown column "${column}"`);
    return field ?? '';
  });
  for (const field of CSV_COLUMNS) {
    if (fields.filter((f) => f === field).length > 1) problems.push(`column "${field}" appears twice`);
  }
  if (!fields.includes('prompt_text')) problems.push('the column "prompt_text" is missing');
  if (problems.length)
    throw new ConfigError(`${caller}: ${problems.join('; ')} (columns: ${CSV_COLUMNS.join(', ')}); nothing was sent`);
  return fields;
}

async function* rowItems(
  caller: string,
  role: QueryRole,
  statement: ReadOnlyStatement,
  fields: readonly string[],
): AsyncGenerator<InputRecord> {
  const result = await readable(caller, () => role.run(statement, PAGE_ROWS));
  let position = 0;
  for await (const page of result.pages) {
    for (const row of page) {
      position++;
      yield rowRecord(position, row, fields);
    }
  }
}

/** One row as an item: NULL leaves the field out; the first value of the wrong kind is the row's problem. */
function rowRecord(position: number, row: readonly QueryCell[], fields: readonly string[]): InputRecord {
  const item: Record<string, unknown> = {};
  let problem: { field: string; issue: string } | undefined;
  fields.forEach((field, i) => {
    const value = row[i];
    if (value === null || value === undefined) return;
    const read = field === 'tags' ? tagsValue(value) : field === 'client_id' ? clientIdValue(value) : textValue(value);
    if ('issue' in read) problem ??= { field, issue: read.issue };
    else item[field] = read.value;
  });
  const clientId = typeof item.client_id === 'string' ? ` (client_id ${JSON.stringify(item.client_id)})` : '';
  const named = `row ${position}${clientId}`;
  return problem ? { line: position, row: named, problem } : { line: position, row: named, item };
}

type Read = { value: unknown } | { issue: string };

function textValue(value: QueryCell): Read {
  return typeof value === 'string' ? { value } : { issue: `must be text (got ${kindOf(value)})` };
}

/** An integer `client_id` is read as its decimal text. */
function clientIdValue(value: QueryCell): Read {
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value)))
    return { value: String(value) };
  return textValue(value);
}

/** An array of texts, or one text of comma-separated tags. */
function tagsValue(value: QueryCell): Read {
  if (typeof value === 'string') {
    return {
      value: value
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
    };
  }
  if (!Array.isArray(value))
    return { issue: `must be an array of texts or comma-separated text (got ${kindOf(value)})` };
  const bad = value.findIndex((tag) => typeof tag !== 'string');
  if (bad >= 0) return { issue: `must be an array of texts (element ${bad + 1} is ${kindOf(value[bad]!)})` };
  return { value };
}

function kindOf(value: QueryCell): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return `the number ${String(value)}`;
  if (typeof value === 'boolean') return `the boolean ${value}`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `the text ${JSON.stringify(value)}`;
}
