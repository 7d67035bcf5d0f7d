/**
 * Bytes processed, as on-demand BigQuery bills a query job, for the statements the connector
 * sends. From BigQuery's pricing page, its DML reference ("On-demand query size calculation")
 * and its data types ("Data type sizes"):
 * - Per table a statement references: the logical bytes of the columns it references, in
 *   the partitions it does not prune; at least 10 MB per referenced table. The target of an
 *   UPDATE, DELETE or MERGE is counted with all its columns (its rows are rewritten whole:
 *   the docs' t and t'), over the partitions the statement reads.
 * - Column bytes: STRING 2 + UTF-8 bytes, INT64 / FLOAT64 / TIMESTAMP 8, BOOL 1, JSON the
 *   UTF-8 bytes of its text, an ARRAY the sum of its elements; NULL 0.
 * - Pruning ("Query partitioned tables"): a filter that compares the partitioning column with
 *   constants (query parameters, TIMESTAMP literals), or tests it IS [NOT] NULL, combined
 *   with AND / OR / NOT, in the statement's WHERE or a MERGE's ON condition. A filter that
 *   needs the data of another table (a join, a subquery) prunes nothing.
 * Simplifications, all upper bounds: a column counts as referenced when its name appears
 * anywhere in the statement (every column for `*` or `T.*`); partitions are read whole
 * (clustering, which lets BigQuery skip blocks within a large partition, is not modelled).
 * Loads are free and bill nothing.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import type { TableResource } from './stand-in-resources.ts';
import type { RestQueryParameter } from './stand-in-sql.ts';

/** BigQuery's minimum per referenced table ("10 MB"), in bytes. */
export const MINIMUM_PER_TABLE = 10 * 1024 * 1024;
const DAY_MICROS = 86_400_000_000n;

export interface ReferencedTable {
  readonly resource: TableResource;
  /** The name the statement gives the table (`T` in `... AS T`), if any. */
  readonly alias: string | undefined;
}

/** Bytes the statement `sql` processes over `tables`, read on `connection`'s snapshot. */
export async function bytesProcessed(
  connection: DuckDBConnection,
  sql: string,
  tables: readonly ReferencedTable[],
  parameters: readonly RestQueryParameter[],
): Promise<number> {
  const words = referencedWords(sql);
  let total = 0;
  for (const [i, { resource, alias }] of tables.entries()) {
    const fields = resource.schema.fields;
    const rewritten = i === 0 && /^\s*(UPDATE|DELETE|MERGE)\b/i.test(sql);
    const columns =
      rewritten || /SELECT\s+\*|\.\*/i.test(sql) ? fields : fields.filter((f) => words.has(f.name.toLowerCase()));
    const partitioning = resource.timePartitioning?.field;
    const filter = partitioning
      ? partitionFilter(sql, alias, resource.tableReference.tableId, partitioning, parameters)
      : undefined;
    total += Math.max(MINIMUM_PER_TABLE, await columnBytes(connection, resource, columns, partitioning, filter));
  }
  return total;
}

function referencedWords(sql: string): Set<string> {
  const code = sql.replace(/'(?:[^'\\]|\\.)*'/g, "''");
  return new Set([...code.matchAll(/`?([A-Za-z_]\w*)`?/g)].map((m) => m[1]!.toLowerCase()));
}

/** Sums the logical bytes of `columns`, over the partitions `keeps` does not prune. */
async function columnBytes(
  connection: DuckDBConnection,
  resource: TableResource,
  columns: readonly TableResource['schema']['fields'][number][],
  partitioning: string | undefined,
  keeps: ((partitionStart: bigint | null) => boolean) | undefined,
): Promise<number> {
  if (!columns.length) return 0;
  const { datasetId, tableId } = resource.tableReference;
  const size = columns.map((c) => `COALESCE(SUM(${fieldSize(`"${c.name}"`, c)}), 0)`).join(' + ');
  const day = partitioning ? `epoch_us(date_trunc('day', "${partitioning}"))` : 'NULL';
  const reader = await connection.runAndReadAll(
    `SELECT ${day} AS day, ${size} AS bytes FROM "${datasetId}"."${tableId}" GROUP BY 1`,
  );
  let total = 0;
  for (const [start, bytes] of reader.getRows() as [bigint | null, bigint | number][]) {
    if (!keeps || keeps(start === null ? null : BigInt(start))) total += Number(bytes);
  }
  return total;
}

/** An array (REPEATED field) is the sum of its elements' sizes. */
function fieldSize(column: string, field: { type: string; mode?: string }): string {
  if (field.mode !== 'REPEATED') return columnSize(column, field.type);
  return `list_sum(list_transform(${column}, lambda element: ${columnSize('element', field.type)}))`;
}

function columnSize(column: string, type: string): string {
  switch (type) {
    case 'STRING':
      return `2 + strlen(${column})`;
    case 'JSON':
      return `strlen(CAST(${column} AS VARCHAR))`;
    case 'BOOL':
    case 'BOOLEAN':
      return `CASE WHEN ${column} IS NULL THEN 0 ELSE 1 END`;
    default:
      return `CASE WHEN ${column} IS NULL THEN 0 ELSE 8 END`;
  }
}

/**
 * Which day partitions (by their first microsecond; null for the NULL partition) the
 * statement may read, from the partition filter on `column` in its MERGE ON or WHERE.
 */
function partitionFilter(
  sql: string,
  alias: string | undefined,
  table: string,
  column: string,
  parameters: readonly RestQueryParameter[],
): ((start: bigint | null) => boolean) | undefined {
  const condition = conditionOf(sql);
  if (condition === undefined) return undefined;
  const names = new Set([alias, table].filter((n): n is string => n !== undefined).map((n) => n.toLowerCase()));
  const expression = new ConditionParser(tokenize(condition), (tokens) =>
    partitionAtom(tokens, names, column, parameters),
  ).parse();
  return (start) => expression(start).has(true);
}

/** The MERGE's ON condition, else the statement's top-level WHERE. */
function conditionOf(sql: string): string | undefined {
  const tokens = tokenize(sql);
  const merge = /^\s*MERGE\b/i.test(sql);
  const [open, closers] = merge
    ? ['ON', ['WHEN']]
    : ['WHERE', ['GROUP', 'ORDER', 'LIMIT', 'QUALIFY', 'HAVING', 'WINDOW']];
  let depth = 0;
  let from = -1;
  for (const [i, token] of tokens.entries()) {
    if (token === '(') depth++;
    else if (token === ')') depth--;
    else if (depth === 0 && from < 0 && token.toUpperCase() === open) from = i + 1;
    else if (depth === 0 && from >= 0 && closers.includes(token.toUpperCase())) return tokens.slice(from, i).join(' ');
  }
  return from >= 0 ? tokens.slice(from).join(' ') : undefined;
}

function tokenize(text: string): string[] {
  return text.match(/'(?:[^'\\]|\\.)*'|`[^`]*`|@\w+|>=|<=|<>|!=|[()=<>,]|[^\s()=<>,]+/g) ?? [];
}

/** The values a condition can take on one partition's rows: true, false, null (unknown). */
type Outcomes = Set<boolean | null>;
type Evaluator = (start: bigint | null) => Outcomes;
const ANY: Outcomes = new Set([true, false, null]);

/** A condition's value on a partition, with what is not about the partition column left open. */
function partitionAtom(
  tokens: readonly string[],
  names: ReadonlySet<string>,
  column: string,
  parameters: readonly RestQueryParameter[],
): Evaluator {
  const text = tokens.join(' ');
  const ref = `(?:(?:\`?(\\w+)\`?\\s*\\.\\s*)?\`?${column}\`?)`;
  const isNull = new RegExp(`^${ref} IS (NOT )?NULL$`, 'i').exec(text);
  if (isNull && (isNull[1] === undefined || names.has(isNull[1].toLowerCase()))) {
    const wantsNull = isNull[2] === undefined;
    return (start) => new Set([(start === null) === wantsNull]);
  }
  const comparison = new RegExp(`^${ref} (>=|>|<=|<|=) (.+)$`, 'i').exec(text);
  if (!comparison || (comparison[1] !== undefined && !names.has(comparison[1].toLowerCase()))) return () => ANY;
  const bound = constantMicros(comparison[3]!, parameters);
  if (bound === undefined) return () => ANY;
  const op = comparison[2]!;
  return (start) => {
    if (start === null) return new Set([null]);
    const last = start + DAY_MICROS - 1n; // every value in the partition lies in [start, last]
    const holds = (v: bigint) =>
      op === '>='
        ? v >= bound
        : op === '>'
          ? v > bound
          : op === '<='
            ? v <= bound
            : op === '<'
              ? v < bound
              : v === bound;
    return new Set([holds(start), holds(last), ...(op === '=' && start <= bound && bound <= last ? [true] : [])]);
  };
}

function constantMicros(text: string, parameters: readonly RestQueryParameter[]): bigint | undefined {
  const literal = /^TIMESTAMP '([^']*)'$/i.exec(text);
  const parameter = /^@(\w+)$/.exec(text);
  const value = literal
    ? literal[1]
    : parameter
      ? parameters.find((p) => p.name === parameter[1] && p.parameterType.type === 'TIMESTAMP')?.parameterValue?.value
      : undefined;
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value.replace(' ', 'T').replace(/\+00(:00)?$/, 'Z'));
  if (Number.isNaN(ms)) return undefined;
  const fraction = /\.(\d{4,6})/.exec(value)?.[1]?.padEnd(6, '0').slice(3) ?? '000';
  return BigInt(ms) * 1000n + BigInt(fraction);
}

/** `expr := term (OR term)*; term := factor (AND factor)*; factor := NOT factor | ( expr ) | atom`. */
class ConditionParser {
  readonly #tokens: readonly string[];
  readonly #atom: (tokens: readonly string[]) => Evaluator;
  #at = 0;

  constructor(tokens: readonly string[], atom: (tokens: readonly string[]) => Evaluator) {
    this.#tokens = tokens;
    this.#atom = atom;
  }

  parse(): Evaluator {
    return this.#expr();
  }

  #expr(): Evaluator {
    let left = this.#term();
    while (this.#keyword('OR'))
      left = combine(left, this.#term(), (a, b) =>
        a === true || b === true ? true : a === false && b === false ? false : null,
      );
    return left;
  }

  #term(): Evaluator {
    let left = this.#factor();
    while (this.#keyword('AND'))
      left = combine(left, this.#factor(), (a, b) =>
        a === false || b === false ? false : a === true && b === true ? true : null,
      );
    return left;
  }

  #factor(): Evaluator {
    if (this.#keyword('NOT')) {
      const inner = this.#factor();
      return (start) => new Set([...inner(start)].map((v) => (v === null ? null : !v)));
    }
    if (this.#tokens[this.#at] === '(' && this.#tokens[this.#at + 1]?.toUpperCase() !== 'SELECT') {
      this.#at++;
      const inner = this.#expr();
      this.#at++; // ')'
      return inner;
    }
    // An atom runs to the next AND / OR / ')' outside its own parentheses.
    const from = this.#at;
    let depth = 0;
    while (this.#at < this.#tokens.length) {
      const token = this.#tokens[this.#at]!;
      if (depth === 0 && (token === ')' || /^(AND|OR)$/i.test(token))) break;
      if (token === '(') depth++;
      if (token === ')') depth--;
      this.#at++;
    }
    return this.#atom(this.#tokens.slice(from, this.#at));
  }

  #keyword(word: string): boolean {
    if (this.#tokens[this.#at]?.toUpperCase() !== word) return false;
    this.#at++;
    return true;
  }
}

function combine(
  left: Evaluator,
  right: Evaluator,
  op: (a: boolean | null, b: boolean | null) => boolean | null,
): Evaluator {
  return (start) => {
    const out: Outcomes = new Set();
    for (const a of left(start)) for (const b of right(start)) out.add(op(a, b));
    return out;
  };
}
