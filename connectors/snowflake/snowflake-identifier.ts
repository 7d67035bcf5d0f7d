/**
 * How the Snowflake destination writes a name. A plain name (letters, digits, underscores,
 * not a reserved word) is written unquoted, so Snowflake stores it upper-case and users
 * query `aivis.websites` or `AIVIS.WEBSITES` alike, and `aivis streams` shows readable DDL.
 * Anything else is quoted in upper case: the very name the unquoted form would give.
 */
import { quoteIdentifier } from '../../src/destination/sql-identifier.ts';

/** Snowflake's reserved keywords (docs: "Reserved & limited keywords"), which cannot be unquoted names. */
const RESERVED = new Set(
  `ACCOUNT ALL ALTER AND ANY AS BETWEEN BY CASE CAST CHECK COLUMN CONNECT CONNECTION CONSTRAINT CREATE CROSS CURRENT
  CURRENT_DATE CURRENT_TIME CURRENT_TIMESTAMP CURRENT_USER DATABASE DELETE DISTINCT DROP ELSE EXISTS FALSE FOLLOWING FOR
  FROM FULL GRANT GROUP GSCLUSTER HAVING ILIKE IN INCREMENT INNER INSERT INTERSECT INTO IS ISSUE JOIN LATERAL LEFT LIKE
  LOCALTIME LOCALTIMESTAMP MINUS NATURAL NOT NULL OF ON OR ORDER ORGANIZATION QUALIFY REGEXP REVOKE RIGHT RLIKE ROW ROWS
  SAMPLE SCHEMA SELECT SET SOME START TABLE TABLESAMPLE THEN TO TRIGGER TRUE TRY_CAST UNION UNIQUE UPDATE USING VALUES
  VIEW WHEN WHENEVER WHERE WITH`.split(/\s+/),
);

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function ident(name: string): string {
  return PLAIN.test(name) && !RESERVED.has(name.toUpperCase()) ? name : quoteIdentifier(name.toUpperCase());
}
