/**
 * BigQuery Standard SQL -> DuckDB, for the statements the connector sends. The rewrites are
 * few and textual on purpose; each one is listed here:
 * 1. `` `project.dataset.table` `` -> `"dataset"."table"` (a dataset is a DuckDB schema; the
 *    project is dropped), `` `name` `` -> `"name"`.
 * 2. `SELECT * EXCEPT (...)` -> `SELECT * EXCLUDE (...)`.
 * 3. `PARSE_JSON(x[, wide_number_mode=>'m'])` -> `CAST(bq_parse_json(x, 'm') AS JSON)`, a function
 *    the engine registers that writes the value back as BigQuery does (`stand-in-json.ts`;
 *    DuckDB alone would keep the text as given).
 * 4. `IN UNNEST(@list)` -> `IN (SELECT UNNEST(<list literal>))`.
 * 5. `@name` -> a typed DuckDB literal of the named query parameter.
 * 6. `TO_JSON_STRING(json)` -> `CAST(json AS VARCHAR)` (the stand-in keeps JSON as BigQuery writes it back).
 * 7. `RAND()` -> `random()`.
 * 8. `FORMAT_TIMESTAMP('format', ts)` -> `strftime(ts, 'format')`, for the elements DuckDB shares
 *    with BigQuery plus `%F`, `%T` and `%E6S`; any other element is refused.
 * 8. The JSON functions the fill of evolved columns uses (`JSON_TYPE`, `JSON_VALUE`,
 *    `JSON_QUERY`, `SAFE.INT64`, `LAX_FLOAT64`, `LAX_BOOL`), `REGEXP_CONTAINS` and
 *    `TIMESTAMP(text)` -> macros named `bq_<name>` the engine defines (`JSON_MACROS`), since
 *    DuckDB has functions of some of those names that mean something else.
 * 9. `[OFFSET(n)]` and `[ORDINAL(n)]` (an array's element from 0 or 1) -> `.bq_offset(offset, n)`, a macro
 *    that fails out of range in BigQuery's words (`Array index n is out of bounds (overflow)`),
 *    where a DuckDB subscript gives NULL; `[SAFE_OFFSET(n)]`, `[SAFE_ORDINAL(n)]` -> a DuckDB
 *    subscript (NULL out of range, as BigQuery). DuckDB's lists count from 1.
 * 10. `CAST(x AS FLOAT64)` -> `CAST(x AS DOUBLE)` (DuckDB knows INT64, STRING and BOOL, not FLOAT64).
 * TIMESTAMP parameters and literals with more than six fraction digits are refused, as
 * BigQuery refuses them (`stand-in-timestamps.ts`); DuckDB would round them.
 * Before all of them, every string literal (`'...'` or `"..."`) is read as BigQuery reads it
 * (backslash escapes) and written as DuckDB's (`../backslash-literal.ts`).
 * Anything else goes to DuckDB as written (QUALIFY, MERGE, ROW_NUMBER, COUNT(*) all exist there).
 */
import { decodeBackslashBody, duckdbLiteral } from '../backslash-literal.ts';

import { LITERAL_TIMESTAMP_MESSAGE, beyondMicroseconds, parameterTimestampMessage } from './stand-in-timestamps.ts';

/** A `queryParameters[]` entry as the REST API carries it. */
export interface RestQueryParameter {
  name?: string;
  parameterType: { type: string; arrayType?: { type: string } };
  parameterValue?: {
    value?: string | number | boolean | null;
    arrayValues?: { value?: string | number | boolean | null }[];
  };
}

export class ParameterError extends Error {}

const NOT_AN_ALIAS =
  /^(ON|USING|WHERE|SET|WHEN|JOIN|INNER|LEFT|RIGHT|FULL|CROSS|GROUP|ORDER|LIMIT|QUALIFY|UNION|AND|OR|FOR)$/i;

/** The `project.dataset.table` names a statement references, in order of appearance, with the alias each is given. */
export function referencedTables(sql: string): { dataset: string; table: string; alias?: string }[] {
  return [...sql.matchAll(/`([\w-]+)\.(\w+)\.(\w+)`(?:\s+(?:AS\s+)?(\w+))?/gi)].map((m) => ({
    dataset: m[2]!,
    table: m[3]!,
    ...(m[4] && !NOT_AN_ALIAS.test(m[4]) ? { alias: m[4] } : {}),
  }));
}

/** `sql` with its string literals as DuckDB writes them; backquoted names kept as they are. */
function duckdbLiterals(sql: string): string {
  return sql.replace(/`(?:[^`\\]|\\.)*`|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/gs, (token) =>
    token.startsWith('`') ? token : duckdbLiteral(decodeBackslashBody(token.slice(1, -1), token[0]!)),
  );
}

export function toDuckdb(bigquerySql: string, parameters: readonly RestQueryParameter[] = []): string {
  const sql = duckdbLiterals(bigquerySql);
  const byName = new Map(parameters.map((p) => [p.name ?? '', p]));
  const literal = (name: string): string => {
    const param = byName.get(name);
    if (!param) throw new ParameterError(`Query parameter '${name}' not found`);
    return parameterLiteral(param);
  };
  for (const [, text] of sql.matchAll(/\bTIMESTAMP\s+'([^']*)'/gi)) {
    if (beyondMicroseconds(text!)) throw new ParameterError(LITERAL_TIMESTAMP_MESSAGE);
  }
  return sql
    .replace(/`[\w-]+\.(\w+)\.(\w+)`/g, '"$1"."$2"')
    .replace(/`(\w+)`/g, '"$1"')
    .replace(/SELECT\s+\*\s+EXCEPT\s*\(/gi, 'SELECT * EXCLUDE (')
    .replace(
      /PARSE_JSON\(([^()]+?)(?:,\s*wide_number_mode\s*=>\s*'(\w+)')?\)/gi,
      (_, value: string, mode = 'exact') => `CAST(bq_parse_json(${value}, '${mode}') AS JSON)`,
    )
    .replace(/TO_JSON_STRING\(([^()]+)\)/gi, 'CAST($1 AS VARCHAR)')
    .replace(/\bRAND\(\)/gi, 'random()')
    .replace(/\[(SAFE_)?(OFFSET|ORDINAL)\((\d+)\)\]/gi, (_, safe: string | undefined, from: string, index: string) => {
      const offset = Number(index) - (from.toUpperCase() === 'ORDINAL' ? 1 : 0);
      return safe ? `[${offset + 1}]` : `.bq_offset(${offset}, ${index})`;
    })
    .replace(/\bAS\s+FLOAT64\)/gi, 'AS DOUBLE)')
    .replace(
      /FORMAT_TIMESTAMP\('([^']*)',\s*([^()]+?)\)/gi,
      (_, format: string, value: string) => `strftime(${value}, '${strftimeFormat(format)}')`,
    )
    .replace(BIGQUERY_FUNCTIONS, (_, name: string) => `bq_${name.replace('.', '_').toLowerCase()}(`)
    .replace(/IN\s+UNNEST\(@(\w+)\)/gi, (_, name: string) => `IN (SELECT UNNEST(${literal(name)}))`)
    .replace(/@(\w+)/g, (_, name: string) => literal(name));
}

const BIGQUERY_FUNCTIONS =
  /\b(JSON_TYPE|JSON_VALUE|JSON_QUERY|SAFE\.INT64|LAX_FLOAT64|LAX_BOOL|REGEXP_CONTAINS|TIMESTAMP)\(/g;

/**
 * The `bq_` macros of rewrite 8, over DuckDB's JSON holding what BigQuery's would (`stand-in-json.ts`):
 * a number written as digits fitting 64 bits is one BigQuery keeps exactly, any other a FLOAT64.
 */
export const JSON_MACROS = [
  "bq_json_type(x) AS CASE WHEN x IS NULL THEN NULL WHEN json_type(x) IN ('BIGINT', 'UBIGINT', 'DOUBLE') THEN 'number' ELSE lower(replace(json_type(x), 'VARCHAR', 'string')) END",
  "bq_json_value(x) AS CASE WHEN json_type(x) NOT IN ('OBJECT', 'ARRAY', 'NULL') THEN json_extract_string(x, '$') END",
  'bq_json_query(x, p) AS json_extract(x, p)',
  `bq_safe_int64(x) AS CASE WHEN json_type(x) IN ('BIGINT', 'UBIGINT') THEN TRY_CAST(json_extract_string(x, '$') AS BIGINT) WHEN json_type(x) = 'DOUBLE' AND CAST(json_extract_string(x, '$') AS DOUBLE) = floor(CAST(json_extract_string(x, '$') AS DOUBLE)) AND abs(CAST(json_extract_string(x, '$') AS DOUBLE)) < 9223372036854775808.0 THEN CAST(CAST(json_extract_string(x, '$') AS DOUBLE) AS BIGINT) END`,
  "bq_lax_float64(x) AS TRY_CAST(json_extract_string(x, '$') AS DOUBLE)",
  "bq_lax_bool(x) AS TRY_CAST(json_extract_string(x, '$') AS BOOLEAN)",
  'bq_regexp_contains(s, p) AS regexp_matches(s, p)',
  'bq_timestamp(s) AS CAST(s AS TIMESTAMPTZ)',
  // `written`: the index as the query wrote it (from 0 or 1), which BigQuery's message names.
  "bq_offset(l, n, written) AS CASE WHEN l IS NULL THEN NULL WHEN n >= 0 AND n < len(l) THEN l[n + 1] ELSE error('Array index ' || written || ' is out of bounds (overflow)') END",
];

/** BigQuery's format elements that read the same in DuckDB's strftime, and those that must be spelled out. */
const SAME_ELEMENTS = new Set(['%Y', '%m', '%d', '%H', '%M', '%S', '%%']);
const SPELLED_OUT: Readonly<Record<string, string>> = { '%F': '%Y-%m-%d', '%T': '%H:%M:%S', '%E6S': '%S.%f' };

function strftimeFormat(format: string): string {
  return format.replace(/%(?:E6S|.)/g, (element) => {
    if (SAME_ELEMENTS.has(element)) return element;
    const spelled = SPELLED_OUT[element];
    if (spelled === undefined)
      throw new ParameterError(`The stand-in does not know FORMAT_TIMESTAMP element ${element}`);
    return spelled;
  });
}

const DUCKDB_TYPES: Readonly<Record<string, string>> = {
  STRING: 'VARCHAR',
  INT64: 'BIGINT',
  FLOAT64: 'DOUBLE',
  BOOL: 'BOOLEAN',
  TIMESTAMP: 'TIMESTAMPTZ',
  JSON: 'JSON',
};

export function duckdbType(bigqueryType: string): string {
  const type = DUCKDB_TYPES[bigqueryType];
  if (!type) throw new ParameterError(`Unsupported type ${bigqueryType}`);
  return type;
}

function parameterLiteral(param: RestQueryParameter): string {
  const { type, arrayType } = param.parameterType;
  if (type === 'ARRAY') {
    const itemType = duckdbType(arrayType?.type ?? 'STRING');
    const items = (param.parameterValue?.arrayValues ?? []).map((v) =>
      scalarLiteral(arrayType?.type ?? 'STRING', v.value ?? null),
    );
    return `[${items.join(', ')}]::${itemType}[]`;
  }
  return scalarLiteral(type, param.parameterValue?.value ?? null);
}

function scalarLiteral(type: string, raw: string | number | boolean | null): string {
  const duck = duckdbType(type);
  if (raw === null) return `NULL::${duck}`;
  // The REST API's JSON mapping accepts numbers and booleans where the proto has strings.
  const value = String(raw);
  if (type === 'INT64' && !/^-?\d+$/.test(value)) throw new ParameterError(`Invalid INT64 value: ${value}`);
  if (type === 'BOOL' && !/^(true|false)$/i.test(value)) throw new ParameterError(`Invalid BOOL value: ${value}`);
  if (type === 'TIMESTAMP' && beyondMicroseconds(value)) throw new ParameterError(parameterTimestampMessage(value));
  return `'${value.replaceAll("'", "''")}'::${duck}`;
}

/** `CREATE TABLE [IF NOT EXISTS] `p.d.t` (col TYPE [NOT NULL], ...) AS SELECT ...`, the one DDL query the connector sends. */
export interface CreateTableAs {
  dataset: string;
  table: string;
  ifNotExists: boolean;
  fields: { name: string; type: string; mode: 'REQUIRED' | 'NULLABLE' }[];
  /** The query whose rows the new table starts with, still in BigQuery SQL. */
  query: string;
}

export function parseCreateTableAs(sql: string): CreateTableAs | undefined {
  const m = /^\s*CREATE\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?`[\w-]+\.(\w+)\.(\w+)`\s*\(([^()]*)\)\s*AS\s+([\s\S]+)$/i.exec(
    sql,
  );
  if (!m) return undefined;
  const fields = m[4]!.split(',').map((definition) => {
    const column = /^\s*`?(\w+)`?\s+(\w+)(\s+NOT\s+NULL)?\s*$/i.exec(definition);
    if (!column) throw new ParameterError(`Syntax error: unexpected column definition ${definition.trim()}`);
    return {
      name: column[1]!,
      type: column[2]!.toUpperCase(),
      mode: column[3] ? ('REQUIRED' as const) : ('NULLABLE' as const),
    };
  });
  return { dataset: m[2]!, table: m[3]!, ifNotExists: m[1] !== undefined, fields, query: m[5]! };
}
