/**
 * The UPDATE that fills evolved columns of rows loaded before they existed, from each row's
 * `_raw`, to the value the loader writes for a new row (`raw-cell.ts`, whose rules this
 * repeats in SQL). One statement per table and run. The statement is shared; each destination
 * says how its SQL reads its JSON type (its dialect's `json`).
 */
import { UTC_TIMESTAMP } from '../../schemas/common.ts';
import type { EvolvedColumn } from '../destination/evolved-column.ts';
import type { SqlDialect } from '../destination/sql-dialect.ts';

/** `UTC_TIMESTAMP` in the regex dialect all four destinations share: no `(?:`, `\d` or `\.`. */
export const PORTABLE_TIMESTAMP_PATTERN = UTC_TIMESTAMP.source
  .replaceAll('(?:', '(')
  .replaceAll('\\d', '[0-9]')
  .replaceAll('\\.', '[.]');

/**
 * A timestamp text the pattern matched, written `YYYY-MM-DDThh:mm:ss.ffffffZ` (seconds `00`
 * when absent, the fraction cut or padded to six digits), as `microsecondTimestamp` writes it.
 */
function canonicalTimestamp(s: string): string {
  const seconds = `CASE WHEN LENGTH(${s}) = 17 THEN '00' ELSE SUBSTR(${s}, 18, 2) END`;
  const fraction = `SUBSTR(CASE WHEN LENGTH(${s}) > 21 THEN SUBSTR(${s}, 21, LENGTH(${s}) - 21) ELSE '' END || '000000', 1, 6)`;
  return `SUBSTR(${s}, 1, 16) || ':' || ${seconds} || '.' || ${fraction} || 'Z'`;
}

/** The value of one evolved column computed from `_raw`. */
export function rawCellSql(dialect: SqlDialect, { column, path }: EvolvedColumn): string {
  const d = dialect.json;
  const x = d.valueAt(path);
  switch (column.type) {
    case 'string':
      return `CASE WHEN ${d.is(x, 'string')} THEN ${d.text(x)} END`;
    case 'timestamp': {
      const text = d.text(x);
      const form = d.matches(text, PORTABLE_TIMESTAMP_PATTERN);
      return `CASE WHEN ${d.is(x, 'string')} THEN CASE WHEN ${form} THEN ${d.timestamp(canonicalTimestamp(text))} END END`;
    }
    case 'int64':
      return `CASE WHEN ${d.is(x, 'number')} THEN ${d.int64(x)} END`;
    case 'float64':
      return `CASE WHEN ${d.is(x, 'number')} THEN ${d.float64(x)} END`;
    case 'boolean':
      return `CASE WHEN ${d.is(x, 'boolean')} THEN ${d.boolean(x)} END`;
    case 'json':
      return `CASE WHEN ${d.is(x, 'present')} THEN ${d.json(x)} END`;
  }
}

/** `UPDATE target SET c = <from _raw>, ... WHERE TRUE` (BigQuery requires a WHERE). */
export function fillFromRawSql(target: string, dialect: SqlDialect, columns: readonly EvolvedColumn[]): string {
  const sets = columns.map((c) => `${dialect.identifier(c.column.name)} = ${rawCellSql(dialect, c)}`);
  return `UPDATE ${target} SET\n  ${sets.join(',\n  ')}\nWHERE TRUE`;
}
