/** The stand-in's documented rewrites, and what they leave alone. */
import { describe, expect, it } from 'vitest';
import { duplicateSourceCheck } from './merge-check.ts';
import { rewriteSql, rewriteStatements } from './sql-rewrite.ts';

describe('Snowflake SQL on DuckDB', () => {
  it('folds unquoted names, maps types, and leaves literals and quoted names alone', () => {
    expect(
      rewriteSql(
        `CREATE TABLE db.s.t (id VARCHAR, n NUMBER(38,0), f FLOAT, ts TIMESTAMP_TZ, v VARIANT, "Mixed" VARCHAR)`,
      ),
    ).toBe(`CREATE TABLE DB.S.T (ID VARCHAR, N DECIMAL(38,0), F DOUBLE, TS TIMESTAMPTZ, V JSON, "Mixed" VARCHAR)`);
    expect(rewriteSql(`select parse_json(j), 'number float variant' AS "lower" from x where y = 'it''s'`)).toBe(
      `SELECT PARSE_JSON(J), 'number float variant' AS "lower" FROM X WHERE Y = 'it''s'`,
    );
  });

  it('makes ARRAY a list of JSON values and ARRAY_CONSTRUCT one, nested or not, leaving literals alone', () => {
    expect(
      rewriteSql(
        'CREATE TABLE t (tags array); SELECT array_construct(\'a)\', array_construct(), (1 + 2)) AS "array_construct("',
      ),
    ).toBe(
      `CREATE TABLE T (TAGS JSON[]); SELECT CAST(JSON_ARRAY('a)', CAST(JSON_ARRAY() AS JSON[]), (1 + 2)) AS JSON[]) AS "array_construct("`,
    );
  });

  it('rewrites USE SCHEMA and the per-database information schema', () => {
    expect(rewriteSql('USE SCHEMA analytics.aivis')).toBe('USE ANALYTICS.AIVIS');
    expect(rewriteSql('SELECT table_name FROM analytics.INFORMATION_SCHEMA.COLUMNS WHERE table_catalog = ?')).toBe(
      `SELECT TABLE_NAME FROM (SELECT * REPLACE (CASE WHEN DATA_TYPE = 'VARCHAR' THEN 'TEXT' WHEN DATA_TYPE LIKE 'DECIMAL%' THEN 'NUMBER' WHEN DATA_TYPE = 'DOUBLE' THEN 'FLOAT' WHEN DATA_TYPE = 'TIMESTAMP WITH TIME ZONE' THEN 'TIMESTAMP_TZ' WHEN DATA_TYPE = 'JSON' THEN 'VARIANT' ELSE DATA_TYPE END AS DATA_TYPE), COLUMN_COMMENT AS "COMMENT" FROM INFORMATION_SCHEMA.COLUMNS) WHERE TABLE_CATALOG = ?`,
    );
  });

  it("rewrites a view column's comment and UNSET COMMENT, and drops COPY GRANTS", () => {
    expect(rewriteSql(`ALTER VIEW db.s.v ALTER COLUMN id COMMENT 'The id.'`)).toBe(
      `COMMENT ON COLUMN DB.S.V.ID IS 'The id.'`,
    );
    expect(rewriteSql('CREATE OR REPLACE VIEW db.s.v COPY GRANTS AS SELECT 1 AS x')).toBe(
      'CREATE OR REPLACE VIEW DB.S.V AS SELECT 1 AS X',
    );
    expect(rewriteSql('ALTER TABLE db.s.t UNSET COMMENT')).toBe('COMMENT ON TABLE DB.S.T IS NULL');
  });

  it("creates a table and then sets the comments Snowflake's CREATE TABLE takes inline", () => {
    expect(
      rewriteSql(
        `CREATE TABLE IF NOT EXISTS db.s.t (id NUMBER(38,0) NOT NULL COMMENT 'The id, (first).', "a,b" TEXT COMMENT 'It\\'s', PRIMARY KEY (id)) COMMENT = 'A table.'`,
      ),
    ).toBe(
      `CREATE TABLE IF NOT EXISTS DB.S.T (ID DECIMAL(38,0) NOT NULL, "a,b" TEXT, PRIMARY KEY (ID)); COMMENT ON TABLE DB.S.T IS 'A table.'; COMMENT ON COLUMN DB.S.T.ID IS 'The id, (first).'; COMMENT ON COLUMN DB.S.T."a,b" IS 'It''s'`,
    );
    // Apart, for the session to set the comments only when the CREATE made the table.
    expect(rewriteStatements(`CREATE TABLE IF NOT EXISTS t (a TEXT COMMENT 'x') COMMENT = 'y'`)).toEqual([
      'CREATE TABLE IF NOT EXISTS T (A TEXT)',
      "COMMENT ON TABLE T IS 'y'",
      "COMMENT ON COLUMN T.A IS 'x'",
    ]);
    // Snowflake puts a column's COMMENT last; anywhere else it stays, for DuckDB to refuse.
    expect(rewriteSql(`CREATE TABLE t (a TEXT COMMENT 'x' NOT NULL)`)).toBe(
      `CREATE TABLE T (A TEXT COMMENT 'x' NOT NULL)`,
    );
  });

  it('derives the duplicate-source check of a MERGE, with the binds its source and condition use', () => {
    const check = duplicateSourceCheck(
      rewriteSql(
        `MERGE INTO db.s.t AS T USING (SELECT ? AS id, 'x (y) ON z' AS v) AS S ON T.id = S.id AND T.k = ? WHEN MATCHED THEN UPDATE SET v = ? WHEN NOT MATCHED THEN INSERT (id) VALUES (S.id)`,
      ),
    );
    expect(check).toEqual({
      sql: `SELECT 1 FROM DB.S.T AS T JOIN (SELECT ? AS ID, 'x (y) ON z' AS V) AS S ON T.ID = S.ID AND T.K = ? GROUP BY T.ROWID HAVING COUNT(*) > 1 LIMIT 1`,
      params: 2,
    });
  });
});
