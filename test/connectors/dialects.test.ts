/**
 * The dialects the engines can run here, each read back by its own engine: a literal reads as the
 * text it was made from (Postgres under either `standard_conforming_strings`), a cast and a
 * first part give what the views and dbt-sources rely on. BigQuery's and Snowflake's run
 * through their stand-ins in the conformance suite (literals topic).
 */
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DUCKDB_DIALECT } from '../../connectors/duckdb/duckdb-dialect.ts';
import { POSTGRES_DIALECT } from '../../connectors/postgres/postgres-dialect.ts';
import type { SqlDialect } from '../../src/destination/sql-dialect.ts';

const TEXTS = [
  '',
  "it's",
  "x\\'; SELECT 1; --",
  'back\\slash\\',
  "''\\\\''",
  'line\nbreak\ttab\r\u0001\u007f',
  '$$ $q$ ` "',
  'ü 😀 \u2028',
];

/** What each engine returns for `SELECT <expressions>`, as one row of text. */
type Select = (expressions: readonly string[]) => Promise<unknown[]>;

function dialectCases(name: string, dialect: SqlDialect, select: () => Select): void {
  it(`${name}: every literal reads back as its text, U+0000 as U+FFFD`, async () => {
    const texts = [...TEXTS, 'nul\u0000here'];
    expect(await select()(texts.map((t) => dialect.literal(t)))).toEqual(
      texts.map((t) => t.replaceAll('\u0000', '\uFFFD')),
    );
  });

  it(`${name}: casts and first parts`, async () => {
    const cast = (expr: string, type: Parameters<SqlDialect['cast']>[1]) => dialect.cast(expr, type);
    const values = await select()([
      cast(cast('42', 'int64'), 'string'),
      cast(cast(cast('42', 'int64'), 'json'), 'string'),
      cast(cast(dialect.literal('a"b'), 'string'), 'json'),
      dialect.firstPart(dialect.literal('web_1?provider=gemini'), '?'),
      dialect.firstPart(dialect.literal('web_1'), '?'),
    ]);
    expect(values.map(String)).toEqual(['42', '42', '"a\\"b"', 'web_1', 'web_1']);
  });
}

describe('the Postgres dialect', () => {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  beforeAll(() => client.connect());
  afterAll(() => client.end());
  const select =
    (setting: 'on' | 'off'): Select =>
    async (expressions) => {
      await client.query(`SET standard_conforming_strings = ${setting}`);
      const { rows } = await client.query({
        text: `SELECT ${expressions.map((e, i) => `CAST(${e} AS TEXT) AS c${i}`).join(', ')}`,
        rowMode: 'array',
      });
      return rows[0] as unknown[];
    };
  dialectCases('standard_conforming_strings on', POSTGRES_DIALECT, () => select('on'));
  dialectCases('standard_conforming_strings off', POSTGRES_DIALECT, () => select('off'));
});

describe('the DuckDB dialect', () => {
  let instance: DuckDBInstance;
  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
  });
  afterAll(() => instance.closeSync());
  const select: Select = async (expressions) => {
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        `SELECT ${expressions.map((e, i) => `CAST(${e} AS VARCHAR) AS c${i}`).join(', ')}`,
      );
      return reader.getRows()[0] as unknown[];
    } finally {
      connection.closeSync();
    }
  };
  dialectCases('duckdb', DUCKDB_DIALECT, () => select);
});
