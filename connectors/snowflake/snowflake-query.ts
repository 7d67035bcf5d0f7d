/**
 * Reading Snowflake with a user's statement (`aivis query`; src/destination/read-only-query.ts).
 * Snowflake compiles the statement first without running it (`describeOnly`), which refuses a
 * text of several statements and reports a syntax error or an unknown object before anything
 * runs. Snowflake has no read-only transaction, and the driver keeps a described statement's
 * type to itself, so what a statement may do rests on the gate's leading keyword (Snowflake has
 * no data-modifying CTEs: a `WITH` ends in a query) and on the role's grants: give aivis a role
 * that only reads where it should only read (docs/destinations/snowflake.md).
 */
import { inPages, leadingKeyword, type QueryCell, type QueryRole } from '../../src/destination/read-only-query.ts';
import { int64FromText } from '../../src/destination/int64-value.ts';
import { ConfigError } from '../../src/errors.ts';
import { connectSnowflake, queryTag, snowflakeCode, type StreamedResult } from './snowflake-client.ts';
import { connectionOptions, type SnowflakeConfig } from './snowflake-config.ts';
import type { SnowflakeDeps } from './snowflake-destination.ts';
import { SNOWFLAKE_DIALECT } from './snowflake-dialect.ts';

/** Snowflake's code for a text whose statement count is not the one asked for (1 by default). */
const STATEMENT_COUNT = '000008';

export async function openSnowflakeQuery(config: SnowflakeConfig, deps: SnowflakeDeps): Promise<QueryRole> {
  const client = await connectSnowflake(connectionOptions(config, deps.requestTimeoutMs), queryTag(deps.run));
  return {
    engine: 'Snowflake',
    dialect: SNOWFLAKE_DIALECT,
    async inspect(sql) {
      try {
        await client.describe(sql);
      } catch (error) {
        if (snowflakeCode(error) === STATEMENT_COUNT) return { several: true, kind: 'SCRIPT', reads: false };
        if (snowflakeCode(error) !== undefined)
          throw new ConfigError(
            `${(error as Error).message.replace(/^Snowflake: .*? failed: /, 'Snowflake cannot run the statement: ')}`,
          );
        throw error;
      }
      return { several: false, kind: leadingKeyword(sql) ?? '', reads: true };
    },
    async run(statement, pageRows) {
      const { columns, rows } = await client.stream(statement.sql);
      async function* cells() {
        for await (const row of rows) yield row.map((value, i) => cell(columns[i]!, value));
      }
      return { columns: columns.map((c) => c.name), pages: inPages(cells(), pageRows) };
    },
    close: () => client.close(),
  };
}

/**
 * A value as the driver streams it as a result cell: numbers, dates and VARIANTs as text
 * (`fetchAsString`), but ARRAY and OBJECT values already parsed: the driver's `JSON` names
 * VARIANT only (its typings have no name for ARRAY or OBJECT).
 */
function cell(column: StreamedResult['columns'][number], value: unknown): QueryCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'object' && (column.type === 'array' || column.type === 'object')) return value as QueryCell;
  const text = String(value);
  switch (column.type) {
    case 'fixed':
      return column.scale === 0 ? int64FromText(text) : text;
    case 'real':
      return Number.isFinite(Number(text)) ? Number(text) : text;
    case 'variant':
    case 'object':
    case 'array':
      return JSON.parse(text) as QueryCell;
    default:
      return text;
  }
}
